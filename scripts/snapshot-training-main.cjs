// Preloaded (`node -r`) into the training run of scripts/train-serve-snapshot.mjs: the serve
// bundle, run by plain node instead of restored from a snapshot, registers its start with
// setDeserializeMainFunction, which outside a snapshot build would throw. Here that start
// runs once the bundle is evaluated, under a name the run's function log is cut at.
const { startupSnapshot } = require('node:v8');

startupSnapshot.setDeserializeMainFunction = (main) => {
  setImmediate(function agentdTrainingMain() {
    main();
  });
};
