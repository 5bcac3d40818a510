"""Generate ``synthetic_nb.csv``: a small data set drawn exactly from a naive-Bayes model.

Model: class C in {A, B, C} with priors 0.5 / 0.3 / 0.2; eight categorical features f1..f8,
each with values lo / mid / hi, independent given the class. The class-conditional chances
P(f_j = v | C = c) are drawn once from a symmetric Dirichlet(2, 2, 2) with a fixed seed, so the
file is fully determined by this script. Concentration 2 (rather than 1) keeps each feature only
moderately informative: a naive Bayes classifier trained on the first 200 rows is right on about
three quarters of the last 100, which leaves room for a credal classifier to be cautious. Run from
anywhere:

    python sample_data/make_synthetic_nb.py

Licence of the output: CC0 (public domain dedication).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20240601
N_ROWS = 300
DIRICHLET_CONCENTRATION = 2.0
CLASSES = ["A", "B", "C"]
PRIORS = [0.5, 0.3, 0.2]
N_FEATURES = 8
VALUES = ["lo", "mid", "hi"]
OUT = Path(__file__).with_name("synthetic_nb.csv")


def conditional_chances(rng: np.random.Generator) -> np.ndarray:
    """Array (n_features, n_classes, n_values): P(f_j = v | c), each row one symmetric Dirichlet draw."""
    alpha = np.full(len(VALUES), DIRICHLET_CONCENTRATION)
    return rng.dirichlet(alpha, size=(N_FEATURES, len(CLASSES)))


def generate(seed: int = SEED, n_rows: int = N_ROWS) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    theta = conditional_chances(rng)
    labels = rng.choice(len(CLASSES), size=n_rows, p=PRIORS)
    rows = []
    for c in labels:
        feats = [VALUES[rng.choice(len(VALUES), p=theta[j, c])] for j in range(N_FEATURES)]
        rows.append([*feats, CLASSES[c]])
    return rows


def main() -> None:
    header = [f"f{j + 1}" for j in range(N_FEATURES)] + ["class"]
    lines = [",".join(header)] + [",".join(r) for r in generate()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    print(f"wrote {OUT} ({N_ROWS} rows)")


if __name__ == "__main__":
    main()
