"""Likelihoods: multinomial profile likelihoods and intervals (paper 003, ``intervals``), the exact
pairwise profile engine behind the LNCC (``pairwise``), its teaching view ``PairProfile``
(``profile``), and paper 003's Theorem 1 on any DAG (``network``: ``NetworkLikelihood``).  The
likelihood-based credal TAN is ``credal_core.LTANC`` (``tan``, which loads scikit-learn).

The interval functions are re-exported here (``from credal_core.likelihood import idm_interval``);
none of this loads scikit-learn.
"""
from .intervals import (
    bernoulli_likelihood_interval,
    idm_interval,
    likelihood_interval,
    multinomial_cloud,
    multinomial_profile,
    vacuous_probability,
    wilks_level,
)
from .network import NetworkLikelihood, NetworkProfile

__all__ = ["multinomial_profile", "likelihood_interval", "wilks_level", "multinomial_cloud",
           "bernoulli_likelihood_interval", "idm_interval", "vacuous_probability", "NetworkLikelihood",
           "NetworkProfile"]
