// Dies before it serves: the engine must fail with this pack's stderr.
// (process.exit rather than a throw: node 20's slow error formatting,
// NODEJS-SDK pitfall P1, is not what this tests.)
console.error("mp-crash-pack: cannot load my rules");
process.exit(3);
