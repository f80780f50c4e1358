// A one-node ONNX model written byte by byte (protobuf wire format), so that this package's tests need no model
// file of another package: y = Sigmoid(x), x and y float tensors of shape [n].

function varint(value: number): number[] {
  const out: number[] = [];
  while (value > 0x7f) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
  return out;
}
const field = (number: number, bytes: number[]): number[] => [...varint((number << 3) | 2), ...varint(bytes.length), ...bytes];
const text = (number: number, value: string): number[] => field(number, [...Buffer.from(value, 'utf8')]);
const integer = (number: number, value: number): number[] => [...varint(number << 3), ...varint(value)];

/** ValueInfoProto of a float tensor with one dimension named `n`. */
function floatVector(name: string): number[] {
  const shape = field(2, field(1, text(2, 'n'))); // TensorShapeProto { dim { dim_param: "n" } }
  const tensorType = field(1, [...integer(1, 1), ...shape]); // TypeProto { tensor_type { elem_type: FLOAT, shape } }
  return [...text(1, name), ...field(2, tensorType)];
}

/** ModelProto bytes (IR version 8, opset 13) of y = Sigmoid(x). */
export function sigmoidModel(): Uint8Array {
  const node = [...text(1, 'x'), ...text(2, 'y'), ...text(4, 'Sigmoid')];
  const graph = [...field(1, node), ...text(2, 'sigmoid'), ...field(11, floatVector('x')), ...field(12, floatVector('y'))];
  return Uint8Array.from([...integer(1, 8), ...field(8, integer(2, 13)), ...field(7, graph)]);
}
