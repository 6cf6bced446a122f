// The prediction step before Python is ready (a plain script: the CSP forbids inline ones).
//
// A learner can choose, write the why line and lock while the runtime loads. Nothing is
// computed here: the choice waits on the form (data-choice, data-why) and main.py applies
// it through the package once Python is ready, or says why a saved lock wins instead.
(() => {
  "use strict";
  const form = document.getElementById("predict_form");
  const button = document.getElementById("lock_prediction");
  const message = document.getElementById("prediction_message");
  const isReady = () => document.documentElement.dataset.python === "ready";
  if (!form || !button || !message || isReady()) return;

  button.disabled = false;
  button.textContent = "Lock in my prediction";
  form.addEventListener("submit", (event) => {
    event.preventDefault(); // the form has no action: submitting would reload the page
    if (isReady() || form.dataset.choice) return; // from here on main.py answers
    const chosen = form.querySelector("input[name=prediction]:checked");
    if (!chosen) {
      message.textContent = "Choose one of the predictions first.";
      return;
    }
    form.dataset.choice = chosen.value;
    form.dataset.why = document.getElementById("why").value;
    for (const input of form.querySelectorAll("input")) input.disabled = true;
    button.disabled = true;
    button.textContent = "Prediction locked in";
    message.textContent =
      "Your prediction is locked in. The numbers appear once Python is ready.";
  });
})();
