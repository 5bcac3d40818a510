"""Naive classifiers over count tables: NaiveBayes (precise), NCC / NCC_ε (imprecise Dirichlet
model, paper 000 §2-3) and LNCC (profile likelihood, paper 000 §4).

Import from the modules (``credal_core.naive.ncc``) or from the top level (``credal_core.NCC``).
"""
