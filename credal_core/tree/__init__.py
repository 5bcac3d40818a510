"""Decision trees on categorical features: the credal decision tree (Abellán & Moral) and its precise
counterpart."""
from .credal_decision_tree import CredalDecisionTree
from .info_gain_tree import InfoGainTree

__all__ = ["CredalDecisionTree", "InfoGainTree"]
