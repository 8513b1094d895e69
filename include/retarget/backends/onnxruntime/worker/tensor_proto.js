// ONNX TensorProto ⇄ ONNX Runtime tensors, for the few fields that carry data: what the
// runner and the worker exchange with retarget.
'use strict';
const ort = require('onnxruntime-node');

// TensorProto.DataType → [ONNX Runtime type name, typed array, element size].
const TYPES = {
  1: ['float32', Float32Array, 4], 2: ['uint8', Uint8Array, 1], 3: ['int8', Int8Array, 1],
  5: ['int16', Int16Array, 2], 6: ['int32', Int32Array, 4], 7: ['int64', BigInt64Array, 8],
  9: ['bool', Uint8Array, 1], 11: ['float64', Float64Array, 8],
};

// A protobuf reader for the few TensorProto fields that carry data.
function readVarint(buf, pos) {
  let result = 0n, shift = 0n;
  for (;;) {
    const b = buf[pos.i++];
    result |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return result;
    shift += 7n;
  }
}

function decodeTensor(buf) {
  const t = { dims: [], dataType: 0, raw: null, floats: [], int64s: [], int32s: [], doubles: [] };
  const pos = { i: 0 };
  while (pos.i < buf.length) {
    const key = Number(readVarint(buf, pos));
    const field = key >> 3, wire = key & 7;
    if (wire === 0) {
      const v = readVarint(buf, pos);
      if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
      else if (field === 2) t.dataType = Number(v);
      else if (field === 7) t.int64s.push(BigInt.asIntN(64, v));
      else if (field === 5) t.int32s.push(Number(BigInt.asIntN(32, v)));
    } else if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      const body = buf.subarray(pos.i, pos.i + len);
      pos.i += len;
      if (field === 9) t.raw = body;
      else if (field === 1 || field === 7 || field === 5) {  // packed varints
        const p = { i: 0 };
        while (p.i < body.length) {
          const v = BigInt.asIntN(64, readVarint(body, p));
          if (field === 1) t.dims.push(Number(v));
          else if (field === 7) t.int64s.push(v);
          else t.int32s.push(Number(v));
        }
      } else if (field === 4) {
        for (let k = 0; k < body.length; k += 4) t.floats.push(body.readFloatLE(k));
      } else if (field === 10) {
        for (let k = 0; k < body.length; k += 8) t.doubles.push(body.readDoubleLE(k));
      }
    } else if (wire === 5) {
      if (field === 4) t.floats.push(buf.readFloatLE(pos.i));
      pos.i += 4;
    } else if (wire === 1) {
      if (field === 10) t.doubles.push(buf.readDoubleLE(pos.i));
      pos.i += 8;
    } else {
      throw new Error(`unsupported wire type ${wire} in a TensorProto`);
    }
  }
  const type = TYPES[t.dataType];
  if (!type) throw new Error(`unsupported tensor data type ${t.dataType}`);
  const [name, Array, size] = type;
  let data;
  if (t.raw) {
    const copy = Buffer.from(t.raw);  // aligned
    data = new Array(copy.buffer, copy.byteOffset, copy.length / size);
  } else if (t.dataType === 1) data = Float32Array.from(t.floats);
  else if (t.dataType === 11) data = Float64Array.from(t.doubles);
  else if (t.dataType === 7) data = BigInt64Array.from(t.int64s);
  else data = Array.from(t.int32s);
  return new ort.Tensor(name, data, t.dims);
}

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return Buffer.from(out);
}

function encodeTensor(tensor, name) {
  const code = Number(Object.keys(TYPES).find((k) => TYPES[k][0] === tensor.type));
  if (!code) throw new Error(`cannot write an output of type ${tensor.type}`);
  const data = tensor.data;
  const raw = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const dims = Buffer.concat(tensor.dims.map(varint));
  const nameBytes = Buffer.from(name, 'utf8');
  return Buffer.concat([
    Buffer.from([0x0a]), varint(dims.length), dims,       // 1: dims, packed
    Buffer.from([0x10]), varint(code),                     // 2: data_type
    Buffer.from([0x42]), varint(nameBytes.length), nameBytes,  // 8: name
    Buffer.from([0x4a]), varint(raw.length), raw,          // 9: raw_data
  ]);
}

module.exports = { decodeTensor, encodeTensor };
