// Validates GLB files with the Khronos glTF validator (npm package `gltf-validator`): prints each
// file's counts and every error and warning, and exits 1 if any file has an error or a warning.
// Images named by URI are read relative to the GLB, so a missing or broken one is an error too.
// Usage: node .ci/gltf-validate.js FILE.glb...
const validator = require('gltf-validator');
const fs = require('fs');
const pathModule = require('path');

(async () => {
  let failed = 0;
  for (const path of process.argv.slice(2)) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(path)), {
      maxIssues: 100,
      externalResourceFunction: (uri) =>
        fs.promises.readFile(pathModule.join(pathModule.dirname(path), decodeURIComponent(uri)))
          .then((bytes) => new Uint8Array(bytes)),
    });
    const issues = report.issues;
    console.log(`${path}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
      `${issues.numInfos} infos`);
    for (const m of issues.messages) {
      if (m.severity <= 1) {
        console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
      }
    }
    if (issues.numErrors > 0 || issues.numWarnings > 0) failed++;
  }
  if (failed > 0) {
    console.log(`${failed} file(s) with errors or warnings`);
    process.exit(1);
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
