// A long-lived ONNX Runtime session for retarget's onnxruntime backend: it loads one model,
// then answers run requests on stdin with results on stdout, as length-prefixed frames of
// TensorProto messages, until stdin closes.
//
//   node worker.js MODEL.onnx
// Frames (little-endian u32 lengths):
//   hello     -> u32 len, "onnxruntime <version>"                       (once, at start)
//   request   <- u32 count, count x (u32 len, name, u32 len, TensorProto)
//   response  -> u8 1, u32 count, count x (u32 len, name, u32 len, TensorProto)
//             |  u8 0, u32 len, error message
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');
const { decodeTensor, encodeTensor } = require('./tensor_proto');

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
function bytes(b) {
  return Buffer.concat([u32(b.length), b]);
}

// Reads stdin as a stream of frames: each `need` call waits until n bytes have arrived.
let pending = Buffer.alloc(0);
let waiting = null;
process.stdin.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  if (waiting) waiting();
});
process.stdin.on('end', () => process.exit(0));
function need(n) {
  return new Promise((resolve) => {
    const check = () => {
      if (pending.length < n) return;
      waiting = null;
      const out = pending.subarray(0, n);
      pending = pending.subarray(n);
      resolve(out);
    };
    waiting = check;
    check();
  });
}

async function main() {
  // argv[3]: the graph optimization level (all, extended, basic or disabled).
  const session = await ort.InferenceSession.create(process.argv[2], {
    graphOptimizationLevel: process.argv[3] || 'all',
  });
  const version = require('onnxruntime-node/package.json').version;
  fs.writeSync(1, bytes(Buffer.from(`onnxruntime ${version}`)));
  for (;;) {
    const count = (await need(4)).readUInt32LE();
    const feeds = {};
    for (let i = 0; i < count; ++i) {
      const name = (await need((await need(4)).readUInt32LE())).toString('utf8');
      const tensor = Buffer.from(await need((await need(4)).readUInt32LE()));
      feeds[name] = tensor;
    }
    try {
      for (const name of Object.keys(feeds)) feeds[name] = decodeTensor(feeds[name]);
      const results = await session.run(feeds);
      const parts = [Buffer.from([1]), u32(session.outputNames.length)];
      for (const name of session.outputNames)
        parts.push(bytes(Buffer.from(name, 'utf8')), bytes(encodeTensor(results[name], name)));
      fs.writeSync(1, Buffer.concat(parts));
    } catch (e) {
      fs.writeSync(1, Buffer.concat([Buffer.from([0]), bytes(Buffer.from(String(e.message || e), 'utf8'))]));
    }
  }
}

main().catch((e) => {
  process.stderr.write(`onnxruntime worker: ${e.message || e}\n`);
  process.exit(1);
});
