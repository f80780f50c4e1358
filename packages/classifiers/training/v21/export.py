"""ONNX graphs of AI-text model 2.1.0, written by hand from the trained weights (no exporter in between):
- encoder.onnx: token rows [T, 2] (int64, the low and high 16 bits of each token hash) -> features [1, C, T], the
  convolutional encoder of train_neural.py with its float16 embedding table;
- model.onnx (the head): features [N, 2 + C] = the n-gram model's two range means and the range mean of the encoder's
  features -> ai_logit [N, 1] = a * (n-gram logit) + b * (neural head) + c, the stacking weights fitted on calib.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13


def _silu(nodes, x, name):
    nodes.append(helper.make_node('Sigmoid', [x], [f'{name}_sig']))
    nodes.append(helper.make_node('Mul', [x, f'{name}_sig'], [name]))
    return name


def _save(graph, path, producer):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', OPSET)], producer_name=producer)
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


def conv_layers(weights, dilations):
    """(weight, bias, dilation) of every convolution, first one first; `dilations` are those after the first (the
    state dict does not hold them: train_neural.py's config does)."""
    rest = [(weights[f'rest.{k}.weight'], weights[f'rest.{k}.bias'], d) for k, d in enumerate(dilations)]
    assert f'rest.{len(dilations)}.weight' not in weights, 'more convolutions than dilations'
    return [(weights['first.weight'], weights['first.bias'], 1)] + rest


def write_encoder(weights, dilations, path):
    emb = weights['emb.weight'].astype(np.float16)
    init = [numpy_helper.from_array(emb, 'embedding'),
            numpy_helper.from_array(np.array([1], dtype=np.int64), 'axis1'),
            numpy_helper.from_array(np.array([0], dtype=np.int64), 'axis0')]
    nodes = [helper.make_node('Gather', ['embedding', 'rows'], ['looked_up'], axis=0),
             helper.make_node('Cast', ['looked_up'], ['looked_up32'], to=TensorProto.FLOAT),
             helper.make_node('ReduceSum', ['looked_up32', 'axis1'], ['summed'], keepdims=0),
             helper.make_node('Transpose', ['summed'], ['by_channel'], perm=[1, 0]),
             helper.make_node('Unsqueeze', ['by_channel', 'axis0'], ['x0'])]
    x = 'x0'
    for k, (w, b, d) in enumerate(conv_layers(weights, dilations)):
        init += [numpy_helper.from_array(w.astype(np.float32), f'conv{k}_w'),
                 numpy_helper.from_array(b.astype(np.float32), f'conv{k}_b')]
        nodes.append(helper.make_node('Conv', [x, f'conv{k}_w', f'conv{k}_b'], [f'conv{k}'],
                                      dilations=[d], pads=[d, d], kernel_shape=[3]))
        h = _silu(nodes, f'conv{k}', f'act{k}')
        if k > 0:
            nodes.append(helper.make_node('Add', [h, x], [f'res{k}']))
            h = f'res{k}'
        x = h
    nodes.append(helper.make_node('Identity', [x], ['features']))
    channels = weights['first.weight'].shape[0]
    graph = helper.make_graph(
        nodes, 'ai_text_token_encoder',
        [helper.make_tensor_value_info('rows', TensorProto.INT64, ['T', 2])],
        [helper.make_tensor_value_info('features', TensorProto.FLOAT, [1, channels, 'T'])], init)
    _save(graph, path, 'training/v21/export.py')


def write_head(weights, a, b, c, path):
    """ai_logit = a * (f0 + f1) + b * (w2 . silu(W1 p + b1) + b2) + c, p = features[:, 2:]; `c` holds the stacking
    constant plus `a` times the n-gram model's intercept (the two means carry no intercept)."""
    w1 = weights['head1.weight'].T.astype(np.float32)  # [C, 64]
    b1 = weights['head1.bias'].astype(np.float32)
    w2 = (weights['head2.weight'].T * b).astype(np.float32)  # [64, 1]
    channels = w1.shape[0]
    init = [numpy_helper.from_array(np.array([[a], [a]], dtype=np.float32), 'ngram_w'),
            numpy_helper.from_array(w1, 'w1'), numpy_helper.from_array(b1, 'b1'), numpy_helper.from_array(w2, 'w2'),
            numpy_helper.from_array(np.array([b * float(weights['head2.bias'][0]) + c], dtype=np.float32), 'bias'),
            numpy_helper.from_array(np.array([0], dtype=np.int64), 's0'),
            numpy_helper.from_array(np.array([2], dtype=np.int64), 's2'),
            numpy_helper.from_array(np.array([2 + channels], dtype=np.int64), 'send'),
            numpy_helper.from_array(np.array([1], dtype=np.int64), 'ax')]
    nodes = [helper.make_node('Slice', ['features', 's0', 's2', 'ax'], ['ngram']),
             helper.make_node('Slice', ['features', 's2', 'send', 'ax'], ['pooled']),
             helper.make_node('MatMul', ['ngram', 'ngram_w'], ['ngram_part']),
             helper.make_node('MatMul', ['pooled', 'w1'], ['hidden0']),
             helper.make_node('Add', ['hidden0', 'b1'], ['hidden1'])]
    hidden = _silu(nodes, 'hidden1', 'hidden')
    nodes += [helper.make_node('MatMul', [hidden, 'w2'], ['neural_part']),
              helper.make_node('Add', ['ngram_part', 'neural_part'], ['sum']),
              helper.make_node('Add', ['sum', 'bias'], ['ai_logit'])]
    graph = helper.make_graph(
        nodes, 'ai_text_stacked_head',
        [helper.make_tensor_value_info('features', TensorProto.FLOAT, ['N', 2 + channels])],
        [helper.make_tensor_value_info('ai_logit', TensorProto.FLOAT, ['N', 1])], init)
    _save(graph, path, 'training/v21/export.py')


def neural_head(weights, pooled):
    """The neural head in numpy (the stacking fit and the tests' reference)."""
    h = pooled @ weights['head1.weight'].T + weights['head1.bias']
    h = h / (1 + np.exp(-h))
    return (h @ weights['head2.weight'].T + weights['head2.bias'])[:, 0]


def numpy_features(weights, dilations, hashes):
    """The encoder in numpy, [C, T] (the reference the package's tests compare the ONNX graphs with)."""
    h = np.asarray(hashes, dtype=np.int64)
    emb = weights['emb.weight'].astype(np.float32)
    x = (emb[h & 0xffff] + emb[h >> 16]).T  # [D, T]
    for k, (w, b, d) in enumerate(conv_layers(weights, dilations)):
        t = x.shape[1]
        padded = np.pad(x, ((0, 0), (d, d)))
        y = b[:, None] + sum(w[:, :, j] @ padded[:, j * d:j * d + t] for j in range(3))
        y = y / (1 + np.exp(-y))
        x = y + x if k > 0 else y
    return x
