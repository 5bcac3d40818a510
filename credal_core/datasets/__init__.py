"""The data sets shipped with the package, loaded as scikit-learn's ``load_*`` functions load theirs.

Every loader returns a :class:`Bunch` with

``frame``
    the whole table (features and class) as a pandas DataFrame;
``data``
    the features ``X`` (DataFrame): categorical columns as text, numeric columns (iris, wine,
    breast cancer) as floats — discretise them before a credal classifier sees them, e.g. with
    :func:`credal_core.data.prepare.prepare` (inside each training fold, as the Compare page does);
``target``
    the class ``y`` (a Series of text labels, named ``target_name``);
``feature_names``, ``target_name``, ``numeric`` (the numeric features), ``filename``, ``DESCR``
    (source, licence, rows and columns, from ``data/README.md``).

``load_<name>(return_X_y=True)`` returns ``(X, y)`` instead.  The files are read by the same loader
as a CSV uploaded to the app (:func:`credal_core.data.csv_loader.read_csv_bytes`), so the app, the
command line and these functions see the same values.  The CSV files themselves live in
``credal_core/datasets/data/`` (:func:`dataset_path`); in a clone of the repository ``sample_data/``
links to that folder.

Examples
--------
>>> from credal_core.datasets import load_weather
>>> X, y = load_weather(return_X_y=True)
>>> X.shape, y.name, sorted(y.unique())
((14, 4), 'play', ['no', 'yes'])
"""
from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = ["Bunch", "DATASETS", "dataset_path", "list_datasets", "load_dataset", "load_balloons",
           "load_breast_cancer", "load_iris", "load_monks1", "load_monks2", "load_monks3",
           "load_synthetic_nb", "load_tic_tac_toe", "load_weather", "load_wine"]

# name -> (file, class column); the numeric data sets have numeric features to discretise
DATASETS: dict[str, tuple[str, str]] = {
    "balloons": ("balloons.csv", "inflated"),
    "breast_cancer": ("breast_cancer.csv", "class"),
    "iris": ("iris.csv", "class"),
    "monks1": ("monks1.csv", "class"),
    "monks2": ("monks2.csv", "class"),
    "monks3": ("monks3.csv", "class"),
    "synthetic_nb": ("synthetic_nb.csv", "class"),
    "tic_tac_toe": ("tic_tac_toe.csv", "class"),
    "weather": ("weather.csv", "play"),
    "wine": ("wine.csv", "class"),
}


class Bunch(dict):
    """A dict whose keys are also attributes (as ``sklearn.utils.Bunch``; defined here so that loading
    a data set does not import scikit-learn)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value

    def __dir__(self):
        return list(self.keys())


def list_datasets() -> list[str]:
    """Names of the shipped data sets (``load_<name>`` loads each)."""
    return sorted(DATASETS)


def _check_name(name) -> str:
    if name not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; choose one of {list_datasets()}")
    return name


def dataset_path(name: str) -> Path:
    """Path of a shipped data set's CSV file (inside the installed package)."""
    filename = DATASETS[_check_name(name)][0]
    return Path(str(resources.files(__name__).joinpath("data", filename)))


@cache
def _descriptions() -> dict[str, str]:
    """The rows of ``data/README.md``'s tables, one description per file name."""
    text = resources.files(__name__).joinpath("data", "README.md").read_text(encoding="utf-8")
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`([\w.]+\.csv)`", cells[0]) if len(cells) == 5 else None
        if match:
            name, (source, licence, rows, columns) = match.group(1), cells[1:]
            out[name] = (f"{name}: {rows} rows\n\nSource: {source}\n\nLicence: {licence}\n\n"
                         f"Columns: {columns}\n")
    return out


def load_dataset(name: str, *, return_X_y: bool = False):
    """Load the shipped data set ``name`` (see the module's description for what is returned)."""
    from ..data.csv_loader import read_csv_bytes

    filename, target = DATASETS[_check_name(name)]
    path = dataset_path(name)
    table = read_csv_bytes(path.read_bytes(), name=filename)
    frame = table.numeric_frame()
    X, y = frame.drop(columns=target), frame[target]
    if return_X_y:
        return X, y
    return Bunch(frame=frame, data=X, target=y, feature_names=list(X.columns), target_name=target,
                 numeric=[c for c in table.numeric if c != target], filename=str(path),
                 DESCR=_descriptions().get(filename, name))


def _loader(name: str):
    def load(*, return_X_y: bool = False):
        return load_dataset(name, return_X_y=return_X_y)

    load.__name__ = load.__qualname__ = f"load_{name}"
    load.__doc__ = (f"Load the ``{name}`` data set ({DATASETS[name][0]}; class column "
                    f"``{DATASETS[name][1]}``).\n\n    Returns a :class:`Bunch` (``frame``, ``data``, "
                    "``target``, ``feature_names``, ``target_name``, ``numeric``, ``filename``, ``DESCR``),\n"
                    "    or ``(X, y)`` with ``return_X_y=True``.\n")
    return load


load_balloons = _loader("balloons")
load_breast_cancer = _loader("breast_cancer")
load_iris = _loader("iris")
load_monks1 = _loader("monks1")
load_monks2 = _loader("monks2")
load_monks3 = _loader("monks3")
load_synthetic_nb = _loader("synthetic_nb")
load_tic_tac_toe = _loader("tic_tac_toe")
load_weather = _loader("weather")
load_wine = _loader("wine")
