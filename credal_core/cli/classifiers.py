"""Classifiers by short ASCII aliases: ``nbc``, ``ncc:s=2``, ``ncc-eps:0.05``, ``lncc:alpha=0.3``, ...

A classifier is written ``alias[:value | :name=value[,name=value...]]``, case-insensitive: a bare value
sets the alias's main parameter (``ncc-eps:0.05`` is ε = 0.05), ``name=value`` any parameter of the
estimator whose default is a number or a word (``lncc:alpha=0.3``, ``ncc:s=2``).  Several classifiers
are separated by commas or spaces; a ``name=value`` after a comma belongs to the classifier before it
(``lncc:alpha=0.3,categories=declared``).  The label of a classifier is the product's (``NCC_ε=0.05``,
``LNCC_α=0.3``), so results line up with the app's; a parameter the label does not show is appended
(``NCC (s=2)``).

Adding a classifier is one :func:`register` line below.  ``estimator`` is a name exported by
``credal_core`` or ``"module:Class"`` (a class of a ``credal_core`` module).
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from ..experiments.compare import ClassifierSpec

__all__ = ["Alias", "ALIASES", "register", "parse_classifiers", "classifier_table", "DEFAULT_ALIASES"]


@dataclass(frozen=True)
class Alias:
    """One entry of the registry: ``name`` (lower-case ASCII), the estimator, the label template
    (``str.format`` with the parameters), fixed ``defaults`` and the parameter a bare value sets."""

    name: str
    estimator: str
    label: str
    defaults: dict = field(default_factory=dict)
    main: str | None = None
    help: str = ""

    def spec(self, given: dict | None = None) -> ClassifierSpec:
        params = {**self.defaults, **(given or {})}
        label = self.label.format(**params)
        shown = {f for _, f, _, _ in string.Formatter().parse(self.label) if f}
        extra = [f"{k}={_text(v)}" for k, v in (given or {}).items()
                 if k not in shown and self.defaults.get(k, _MISSING) != v]
        return ClassifierSpec(label + (f" ({', '.join(extra)})" if extra else ""), self.estimator, params)


_MISSING = object()
ALIASES: dict[str, Alias] = {}


def register(name: str, estimator: str, label: str, defaults: dict | None = None, main: str | None = None,
             help: str = "") -> Alias:
    """Add an alias (one line per classifier); ``name`` is matched case-insensitively."""
    key = name.lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9*._-]*", key):
        raise ValueError(f"an alias is lower-case ASCII letters, digits and - _ . *; got {name!r}")
    ALIASES[key] = Alias(key, estimator, label, dict(defaults or {}), main, help)
    return ALIASES[key]


register("nbc", "NaiveBayes", "NBC", {"s": 1.0}, "s", "naive Bayes classifier (precise)")
register("ncc", "NCC", "NCC", {"s": 1.0}, "s", "naive credal classifier (IDM strength s)")
register("ncc-eps", "NCC", "NCC_ε={epsilon:g}", {"s": 1.0, "epsilon": 0.05}, "epsilon",
         "NCC_ε: the NCC with ε-contaminated priors (paper 000)")
register("lncc", "LNCC", "LNCC_α={alpha:g}", {"alpha": 0.75}, "alpha", "likelihood-based NCC (paper 000)")
register("aode", "AODE", "AODE", {}, None, "averaged one-dependence estimators (precise)")
register("bma-aode", "BMAAODE", "BMA-AODE", {}, None, "AODE with Bayesian model averaging (precise)")
register("comp-aode", "CompAODE", "COMP-AODE", {}, None, "AODE with compression coefficients (precise)")
register("bma-aode*", "CredalBMAAODE", "BMA-AODE*", {"epsilon": 0.01}, "epsilon", "credal BMA-AODE (001)")
register("comp-aode*", "CredalCompAODE", "COMP-AODE*", {"epsilon": 0.01}, "epsilon", "credal COMP-AODE (001)")
register("cma", "CMA", "CMA", {"s": 1.0}, "s", "credal model averaging over naive feature subsets (001 §3.4)")
register("bma-naive", "BMANaive", "BMA (naive subsets)", {"s": 1.0}, "s",
         "Bayesian model averaging over naive feature subsets (precise)")
register("cdt", "CredalDecisionTree", "CDT", {"s": 1.0}, "s",
         "credal decision tree (Abellán & Moral; 001 §3.4)")
register("tree", "InfoGainTree", "Tree (upper entropy)", {"s": 1.0}, "s",
         "ID3 tree split by the IDM upper entropy, majority leaves (precise)")
register("ltanc", "LTANC", "LTANC_α={alpha:g}", {"alpha": 0.75}, "alpha",
         "likelihood-based credal TAN (paper 003 Theorem 1)")
register("selector", "ThresholdSelector", "Selector (Li et al. 2019)", {}, None,
         "threshold selector (paper 004: Li, De Bock & de Cooman 2019)")
for _base, _name in (("nbc", "NBC"), ("aode", "AODE")):        # split and Mondrian conformal sets
    register(f"conformal-{_base}", "credal_core.conformal:ConformalClassifier", f"conformal-{_name}",
             {"base": _base, "mondrian": False, "significance": 0.1}, "significance",
             f"split conformal sets over the {_name}'s probabilities"
             + (" (crepes)" if _base == "nbc" else ""))
    register(f"mondrian-{_base}", "credal_core.conformal:ConformalClassifier", f"Mondrian-{_name}",
             {"base": _base, "mondrian": True, "significance": 0.1}, "significance",
             f"class-conditional (Mondrian) conformal sets over the {_name}'s probabilities")

# Labels of earlier versions, still accepted: the selector's label named its paper by number only.
LEGACY_LABELS = {"selector (004)": "selector"}

# The product's default comparison (the app's Compare page): every classifier but the conformal ones.
DEFAULT_ALIASES = ("nbc", "ncc", "ncc-eps", "lncc", "aode", "bma-aode", "comp-aode", "bma-aode*",
                   "comp-aode*", "cma", "cdt", "selector")


def _text(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _estimator_defaults(alias: Alias) -> dict:
    model = alias.spec().make()
    return model.get_params(deep=False)


def _value(name: str, text: str, default, where: str):
    """``text`` as the type of the estimator's default for ``name``."""
    lowered = text.strip().lower()
    if isinstance(default, bool):
        if lowered in ("true", "yes", "1"):
            return True
        if lowered in ("false", "no", "0"):
            return False
        raise ValueError(f"{where}: {name} must be true or false; got {text!r}")
    if isinstance(default, (int, float)) or default is None:
        try:
            number = float(text)
        except ValueError:
            if default is None:
                return text.strip()
            raise ValueError(f"{where}: {name} must be a number; got {text!r}") from None
        if isinstance(default, int) and number.is_integer():
            return int(number)
        return number
    return text.strip()


def _one(text: str, extra: list[str]) -> ClassifierSpec:
    name, _, rest = text.partition(":")
    alias = ALIASES.get(name.strip().lower())
    if alias is None:
        raise ValueError(f"unknown classifier {name.strip()!r}; choose from {', '.join(ALIASES)} "
                         "(python -m credal_core compare --list-classifiers)")
    settable = {k: v for k, v in _estimator_defaults(alias).items()
                if v is None or isinstance(v, (bool, int, float, str))}
    given = {}
    for part in ([rest] if rest.strip() else []) + extra:
        key, eq, value = part.partition("=")
        if not eq:
            if alias.main is None:
                raise ValueError(f"{text}: {alias.name} has no main parameter; write name=value "
                                 f"(parameters: {', '.join(sorted(settable)) or 'none'})")
            key, value = alias.main, part
        key = key.strip().lower()
        if key not in settable or key in ("base", "mondrian"):
            accepted = sorted(k for k in settable if k not in ("base", "mondrian"))
            raise ValueError(f"{text}: {alias.name} has no parameter {key!r}; it takes: "
                             f"{', '.join(accepted) or 'none'}")
        if key in given:
            raise ValueError(f"{text}: {key} is given twice")
        given[key] = _value(key, value, settable[key], text)
    spec = alias.spec(given)
    model = spec.make()
    check = getattr(model, "check_parameters", None) or getattr(model, "_validate_params", None)
    if check is not None:                     # the estimator's own parameter checks, before any work
        try:
            check()
        except (ValueError, TypeError) as problem:
            raise ValueError(f"{text}: {problem}") from None
    return spec


# The page's sliders as options of the command line: the classifiers each one sets (unless the
# classifier's own text gives the parameter).
# The options the Compare page sets on every classifier that has them (app_support/compare/model.py).
OVERRIDABLE = {"s": ("nbc", "ncc", "ncc-eps", "cma", "bma-naive", "cdt", "tree"), "epsilon": ("ncc-eps",),
               "alpha": ("lncc", "ltanc")}


def parse_classifiers(items, overrides: dict | None = None) -> list[ClassifierSpec]:
    """Specs of ``items`` (strings such as ``"nbc,ncc-eps:0.05"`` or ``"lncc:alpha=0.3"``), in order.

    The product's labels are accepted too (``NCC_ε=0.05``, ``Selector (Li et al. 2019)``, and the older
    ``Selector (004)``).  ``overrides``
    (``{"s": 2.0, "epsilon": 0.1, "alpha": 0.5}``, the Compare page's sliders) set that parameter of
    the classifiers in :data:`OVERRIDABLE` that do not give it themselves; an override that sets
    nothing is an error (it would be silently ignored).  A ``ValueError`` names an unknown alias or
    parameter; duplicated labels are refused.
    """
    if isinstance(items, str):
        items = [items]
    labels = {spec.label.lower(): alias for alias in DEFAULT_ALIASES
              for spec in [ALIASES[alias].spec()]} | LEGACY_LABELS
    pieces = [p.strip() for item in items for p in str(item).split(",") if p.strip()]
    groups: list[tuple[str, list[str]]] = []
    for piece in pieces:
        head = piece.partition(":")[0].partition("=")[0]
        if piece.lower() in labels:
            groups.append((labels[piece.lower()], []))
        elif "=" in piece and ":" not in piece and head.strip().lower() not in ALIASES and groups:
            groups[-1][1].append(piece)                # lncc:alpha=0.3,categories=declared
        else:
            groups.append((piece, []))
    overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
    unknown = sorted(set(overrides) - set(OVERRIDABLE))
    if unknown:
        raise ValueError(f"no such classifier option: {unknown}")
    used = set()
    for i, (text, extra) in enumerate(groups):
        name = text.partition(":")[0].strip().lower()
        own = {p.partition("=")[0].strip().lower() for p in [text.partition(":")[2], *extra] if "=" in p}
        if ":" in text and "=" not in text.partition(":")[2] and name in ALIASES:
            own.add(ALIASES[name].main)
        for key, value in overrides.items():
            if name in OVERRIDABLE[key] and key not in own:
                extra = extra + [f"{key}={value}"]
                used.add(key)
        groups[i] = (text, extra)
    ignored = sorted(set(overrides) - used)
    if ignored:
        raise ValueError(f"--{ignored[0]} would be ignored: no chosen classifier takes it from the option "
                         f"(it sets {', '.join(OVERRIDABLE[ignored[0]])} unless given in the classifier)")
    specs = [_one(text, extra) for text, extra in groups]
    labels = [s.label for s in specs]
    repeated = sorted({lab for lab in labels if labels.count(lab) > 1})
    if repeated:
        raise ValueError(f"classifier(s) chosen twice: {', '.join(repeated)}")
    if not specs:
        raise ValueError("choose at least one classifier")
    return specs


def classifier_table() -> str:
    """The registry as text (``--list-classifiers``)."""
    lines = ["alias            main parameter   default label         what"]
    for alias in ALIASES.values():
        main = f"{alias.main}={_text(alias.defaults[alias.main])}" if alias.main else "-"
        lines.append(f"{alias.name:<16} {main:<16} {alias.spec().label:<19} {alias.help}")
    lines.append("Write alias:value for the main parameter, alias:name=value for any parameter "
                 "(e.g. ncc:s=2, lncc:alpha=0.3).")
    return "\n".join(lines)
