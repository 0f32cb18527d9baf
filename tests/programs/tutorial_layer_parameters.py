# "Layer Parameters Tutorial", pytorch/tutorials beginner_source/layer_parameters_tutorial.py @ 8a378f48,
# prose dropped. Cut: nothing (no random value is printed).
from torch import nn

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()
print(model)

print([param.shape for param in model.parameters()])

for name, param in model.named_parameters():
    print(name, param.shape)

layer = nn.Linear(28*28, 512)

for name, param in layer.named_parameters():
    print(name, param.size())

for name, param in model.named_parameters():
    print(f'{name=}, {param.size()=}, {param.numel()=}')

print(f'Total model params: {sum(p.numel() for p in model.parameters()):,}')

print(f'Total model trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}')

for name, param in model.named_parameters():
    if name == 'linear_relu_stack.0.weight':
        param.requires_grad = False
    print(f'{name=}, {param.size()=}, {param.numel()=}, {param.requires_grad=}')
print(f'Total model trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}')

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels=1, out_channels=32, kernel_size=3),
            nn.ReLU(inplace=True),
            nn.Conv2d(in_channels=32, out_channels=64, kernel_size=3),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=(2, 2)),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(64 * 12 * 12, 128),
            nn.ReLU(inplace=True),
            nn.Linear(128, 10),
        )

    def forward(self, x):
        x = self.features(x)
        x = self.classifier(x)
        return x

cnn_model = CNN()
print(cnn_model)
print('-'*72)
for name, param in cnn_model.named_parameters():
    print(f'{name=}, {param.size()=}, {param.numel()=}, {param.requires_grad=}')
print('-'*72)
print(f'Total model trainable params: {sum(p.numel() for p in cnn_model.parameters() if p.requires_grad):,}')

import numpy as np

for name, param in cnn_model.named_parameters():
    print(f'{name=}, {param.size()=}, {np.prod(param.size())=} == {param.numel()=}')
