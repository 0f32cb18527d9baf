# "Linear Regression in PyTorch Tutorial", pytorch/tutorials beginner_source/linear_regression_tutorial.py
# @ b57bc735, prose dropped (the docstrings of the model's methods kept). Cut: nothing. torch.manual_seed(0) added.
from torch import nn
import torch
from torch import tensor

torch.manual_seed(0)

# x_data is the independent variable, y_data the target variable to be learned.
x_data = tensor([[1.0], [7.0], [3.0], [5.0]])
y_data = tensor([[2.0], [3.0], [7.0], [7.0]])

# We need to set up a model class
class Model(nn.Module):
    def __init__(self):
        """
        Initialize the model type. We also initialize with the 'Linear' layer -- set
        our input and output size to 1, since each dataset the x/y values are 1 to 1.
        """
        super(Model, self).__init__()
        self.linear = torch.nn.Linear(1, 1)

    def forward(self, x):
        """
        Define our forward pass function. This function uses our input data as defined
        above with x as its input -- it returns the predicted value of Y.
        Read more regarding forward and backward functions at https://pytorch.org/tutorials/beginner/pytorch_with_examples.html
        """
        y_pred = self.linear(x)
        return y_pred


# Instantiate model class from above
model = Model()

criterion = torch.nn.MSELoss(reduction='sum')

optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(100):
    # Complete forward pass, set our gradient to zero since it will accumulate otherwise
    y_pred = model(x_data)
    optimizer.zero_grad()
    
    # Compute loss
    loss = criterion(y_pred, y_data)

    # Backward pass, update optimizer parameter given current gradient.
    loss.backward()
    optimizer.step()


# After training, test with a novel x_value
x = tensor([[5.0]])
y_pred = model(x)
print("Prediction:", y_pred.data[0][0])
