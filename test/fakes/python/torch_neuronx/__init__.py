"""Fake torch_neuronx (importing it registers the Neuron XLA backend)."""
__version__ = "2.9.0.2.11+fake"
