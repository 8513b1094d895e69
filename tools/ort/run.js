// Runs an ONNX model on ONNX Runtime (its official Node.js binding) with inputs and outputs
// as ONNX TensorProto files, the format the references are committed in.
//
//   node tools/ort/run.js MODEL.onnx OUT_DIR name=input.pb ...
//
// Writes OUT_DIR/<output name>.pb for every output and prints ONNX Runtime's version.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const { decodeTensor, encodeTensor } = require('./tensor_proto');

async function main() {
  const [model, outDir, ...pairs] = process.argv.slice(2);
  if (!model || !outDir) throw new Error('usage: node run.js MODEL OUT_DIR name=file.pb ...');
  const feeds = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new Error(`input '${pair}' is not name=file.pb`);
    feeds[pair.slice(0, eq)] = decodeTensor(fs.readFileSync(pair.slice(eq + 1)));
  }
  const session = await ort.InferenceSession.create(model);
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, { recursive: true });
  for (const name of session.outputNames)
    fs.writeFileSync(path.join(outDir, `${name}.pb`), encodeTensor(results[name], name));
  console.log(`onnxruntime ${require('onnxruntime-node/package.json').version}: ${session.outputNames.join(', ')}`);
}

main().catch((e) => {
  console.error(`ort runner: ${e.message}`);
  process.exit(1);
});
