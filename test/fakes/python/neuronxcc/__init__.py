"""Fake neuronxcc (the Neuron compiler package)."""
__version__ = "2.21.0+fake"
