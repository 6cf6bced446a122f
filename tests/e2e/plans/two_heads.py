"""Deep dive D8 as a learner works it end to end: what to type and what the page says back."""

from __future__ import annotations

import re

from plans import Plan, ProjectionPlan

RIGHT_PREDICTION = "Clearly different, by more than 0.1."
RIGHT_READING = "Each head normalises over its own scores"
# Six right answers in the mixed forms a learner might type them.
MIXED_ANSWERS = {
    "Head A, the score for key 1": "2",
    "Head A, the weight on key 1": " 0,4643 ",
    "Head A, the output": "1.376",
    "Head B, the score for key 2": "−1",
    "Head B, the weight on key 1": ".4754",
    "Head B, the output": "7/8",
}
SINGLE_HEAD_OUTPUT = "1.1740"  # 8.2's single-head first entry: a known slip for head A's output

PLAN = Plan(
    slug="d8",
    right_prediction=RIGHT_PREDICTION,
    wrong_prediction="The same two numbers.",
    heads={"head A, coordinate 1": "The output is 1.3760.",
           "head B, coordinate 2": "The output is 0.8744."},
    right_answers=MIXED_ANSWERS,
    wrong_answers={
        "Head A, the score for key 1": "0.4643",  # a weight where a score was asked
        "Head A, the output": SINGLE_HEAD_OUTPUT,  # the single head's number
        "Head B, the output": "abc",
    },
    one_wrong={"Head B, the weight on key 1": "0.1749"},
    right_reading=RIGHT_READING,
    wrong_reading="The difference is rounding.",
    wrong_reading_says=re.compile(r"^The gap is as large as .*Rounding cannot explain it\. "
                                  r"See for yourself in Explore: show full precision\.$"),
    slips={
        "Head A, the score for key 1": "Not within 0.02. That is the weight on key 1, not its "
                                       "score. The score is the query times the key.",
        "Head A, the output": "Not within 0.02. That is the single head's output from 8.2. This "
                              "head sees only its own coordinate, so its weights are different.",
        "Head B, the output": "“abc” is not a number.",
    },
    # A fraction, a decimal comma, an exponent, the Unicode minus, a plain integer.
    typed=(
        ("Head B, the output", "7/8", "read as 0.875"),
        ("Head A, the weight on key 1", "0,4643", "read as 0.4643"),
        ("Head B, the weight on key 1", "4.754e-1", "read as 0.4754"),
        ("Head B, the score for key 2", "−1", "read as -1"),
        ("Head A, the score for key 1", "2", "read as 2"),
    ),
    hint=re.compile(r"^In head A, keys 1 and 3 both score 2\."),
    compare=("You predicted: The same two numbers. The two heads and the single head differ by "
             "0.2019 and 0.1101. So the numbers say: Clearly different, by more than 0.1."),
    notebook=(
        r"output, weights against values\s+1\.3760",
        r"output, weights against values\s+0\.8744",
        r"concatenated heads\s+1\.3760, 0\.8744",
        r"single head\s+1\.1740, 0\.7643",
        r"difference\s+0\.2019, 0\.1101",
    ),
    projection=ProjectionPlan(concatenated=("1.3760", "0.8744"), doubled=("2.7519", "0.8744"),
                              swapped=("0.8744", "1.3760")),
)
