"""Shared helpers of the training scripts: reading the dumped features, a standardising MLP, ONNX export."""
import datetime
import json
import os

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '.data')
MODELS = os.path.join(HERE, '..', 'models')


def load(name):
    with open(os.path.join(DATA, name + '.json')) as f:
        meta = json.load(f)
    x = np.fromfile(os.path.join(DATA, name + '.f32'), dtype=np.float32).reshape(-1, meta['width'])
    rows = meta['rows']
    return x, rows


class StandardisedMLP(nn.Module):
    """MLP whose first step standardises the raw features with the training mean and deviation (kept in the graph)."""

    def __init__(self, mean, std, hidden, outputs):
        super().__init__()
        self.register_buffer('mean', torch.tensor(mean, dtype=torch.float32))
        self.register_buffer('std', torch.tensor(std, dtype=torch.float32))
        layers, width = [], len(mean)
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(0.1)]
            width = h
        layers.append(nn.Linear(width, outputs))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net((x - self.mean) / self.std)


class Probabilities(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, features):
        return torch.softmax(self.model(features), dim=-1)


def fit_with_early_stopping(model, opt, loss_of, train_idx, val_idx, rng, max_epochs, batch=256, patience_limit=6):
    """Minibatch training that keeps the weights of the best validation loss and stops after `patience_limit`
    epochs without improvement. Leaves the model in eval mode with the best weights."""
    best, best_state, patience = 1e9, None, 0
    for epoch in range(max_epochs):
        model.train()
        perm = torch.tensor(rng.permutation(train_idx))
        for start in range(0, len(perm), batch):
            opt.zero_grad()
            loss_of(perm[start:start + batch]).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val = float(loss_of(val_idx))
        if val < best - 1e-4:
            best, best_state, patience = val, {k: v.clone() for k, v in model.state_dict().items()}, 0
        else:
            patience += 1
            if patience >= patience_limit:
                break
    model.load_state_dict(best_state)
    model.eval()
    print(f'stopped after {epoch + 1} epochs, best validation loss {best:.4f}')


def export(model, width, name):
    model.eval()
    wrapped = Probabilities(model)
    path = os.path.join(MODELS, name + '.onnx')
    torch.onnx.export(wrapped, torch.zeros(1, width), path, input_names=['features'], output_names=['probabilities'],
                      dynamic_axes={'features': {0: 'batch'}, 'probabilities': {0: 'batch'}}, opset_version=13)
    return path


def fixed_inputs(width):
    """Inputs whose outputs the model card records and the tests check against onnxruntime-node."""
    return {
        'zeros': [0.0] * width,
        'halves': [0.5] * width,
        'ramp': [round(i / width, 4) for i in range(width)],
    }


def fixed_outputs(model, width):
    model.eval()
    wrapped = Probabilities(model)
    out = {}
    with torch.no_grad():
        for key, values in fixed_inputs(width).items():
            out[key] = [round(float(v), 6) for v in wrapped(torch.tensor([values]))[0]]
    return out


def today():
    return datetime.date.today().isoformat()
