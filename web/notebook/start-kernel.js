// A JupyterLite extension, written by hand: starts the kernel of the notebook that the page's
// URL names (notebooks/?path=d8.ipynb) as soon as the app's plugins activate, instead of once
// the notebook has been fetched and drawn, about two seconds later on a cold open. The
// notebook then finds the session running for its path and joins it, as it would join one
// that another tab of the app had started.
//
// build.py copies it into the app as a federated extension (src/course_build/notebook_app.py,
// START_KERNEL) and lists it in jupyter-lite.json. It needs no bundler: a container is an
// object with init(shareScope) and get(module), and the two tokens it uses come from the
// app's shared modules, the very objects every other plugin receives.
(() => {
  "use strict";
  const NAME = "attention-lessons-start-kernel";
  const SHARED = { specs: "@jupyterlite/services", worker: "@jupyterlite/apputils" };
  let shared = null;

  // A shared module as every plugin gets it: the app's modules are singletons, and of the
  // versions registered (an extension brings its own), webpack hands out the highest.
  const load = async (name) => {
    const versions = Object.entries(shared?.[name] ?? {});
    if (!versions.length) throw new Error(`${name} is not shared`);
    const [, highest] = versions.reduce((a, b) => (newer(b[0], a[0]) ? b : a));
    return (await highest.get())();
  };
  const newer = (a, b) => {
    const [x, y] = [a, b].map((v) => v.split(/[.+-]/).map((part) => parseInt(part, 10) || 0));
    const at = x.findIndex((part, i) => part !== (y[i] ?? 0));
    return at >= 0 && x[at] > (y[at] ?? 0);
  };

  // Settles once `specs` can make `name`: the kernel's plugin registers it as it activates.
  const registered = (specs, name) => new Promise((done) => {
    const check = () => {
      if (!specs.factories.has(name)) return;
      specs.changed.disconnect(check);
      done();
    };
    specs.changed.connect(check);
    check();
  });

  // Settles once JupyterLite's worker controls this page, or after CLAIM_MS. Its `ready`
  // settles as soon as the worker is registered, while it may still be installing (it caches
  // the app first); until it claims the page, the page is the site worker's or no worker's,
  // and the kernel's requests to its drive go past both to the server (a 501 from
  // `python3 -m http.server`, seen in 1 test run of 4 with two notebooks open at once).
  const CLAIM_MS = 10000;
  const controlled = (registration) => new Promise((done) => {
    const { serviceWorker } = navigator;
    const script = (registration?.installing ?? registration?.waiting ?? registration?.active)
      ?.scriptURL;
    const finish = () => {
      clearTimeout(timer);
      serviceWorker.removeEventListener("controllerchange", check);
      done();
    };
    const check = () => {
      if (!script || serviceWorker.controller?.scriptURL === script) finish();
    };
    const timer = setTimeout(() => {
      console.warn(`${NAME}: JupyterLite's worker did not take this page in ${CLAIM_MS} ms`);
      finish();
    }, CLAIM_MS);
    serviceWorker.addEventListener("controllerchange", check);
    check();
  });

  const start = async (app, specs, worker) => {
    const path = new URLSearchParams(location.search).get("path");
    if (!path?.endsWith(".ipynb")) return;
    const name = specs.defaultKernelName;
    // The kernel mounts the app's files only if JupyterLite's worker is registered when it is
    // made, so wait for that, as the notebook would have (a refused worker rejects `ready`),
    // and then for the worker to control the page (above).
    await Promise.all([worker?.ready.catch(() => {}), registered(specs, name)]);
    if (worker?.enabled) {
      await controlled(await navigator.serviceWorker.getRegistration(location.href));
    }
    // As the notebook's own context names its session: its path, and the file's name.
    const session = await app.serviceManager.sessions.startNew({
      path, name: path.split("/").pop(), type: "notebook", kernel: { name },
    });
    session.dispose(); // only this connection: the session and its kernel run on
    console.info(`${NAME}: started the kernel of ${path}`);
  };

  const plugin = (tokens) => ({
    id: `${NAME}:plugin`,
    description: "Starts the kernel of the notebook the URL names as the app starts.",
    autoStart: true,
    requires: [tokens.specs],
    optional: [tokens.worker],
    activate: (app, specs, worker) => {
      start(app, specs, worker).catch((error) => {
        // The notebook starts its kernel itself, as it does without this extension.
        console.warn(`${NAME}: the kernel starts with the notebook instead:`, error);
      });
    },
  });

  const container = {
    init: (scope) => {
      shared = scope;
    },
    get: async () => {
      const [services, apputils] = await Promise.all([load(SHARED.specs), load(SHARED.worker)]);
      const tokens = { specs: services.IKernelSpecs, worker: apputils.IServiceWorkerManager };
      return () => ({ __esModule: true, default: [plugin(tokens)] });
    },
  };
  (window._JUPYTERLAB ??= {})[NAME] = container;
})();
