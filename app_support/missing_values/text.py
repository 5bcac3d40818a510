"""The texts of the page "Missing values" (no streamlit import)."""
from __future__ import annotations

MISSING_INTRO = (
    "A missing value can be treated in three ways. **Missing at random ([MAR](/glossary#mar))**: the "
    "classifiers skip it — "
    "a training row counts for feature j only where j is present, and a missing value of the instance "
    "leaves the naive product. **Imputation**: fill it with the most frequent value of the training data "
    "(paper 001). **Not missing at random "
    "([NCC2](/glossary#ncc2)'s [conservative](/glossary#cir) rule**, Corani and Zaffalon 2008): the "
    "value hidden may be *any* value, so class a [dominates](/glossary#dominance) b only if it does for "
    "**every** completion "
    "of the hidden values. Declaring more features non-MAR makes dominance harder as long as the instance's "
    "values were seen in training (the hidden values range over the seen ones): the set of the credal "
    "classifier ([NCC](/glossary#ncc)) then never shrinks, and it keeps the truth when the missingness "
    "itself "
    "carries information.")
MISSING_HIDE_HELP = (
    "Hide some training cells of one feature (seeded). At random (MCAR): each cell with this probability. "
    "Not at random: only cells holding the chosen value, each with this probability — as if a weather "
    "station failed on sunny days. The instance's own row is never hidden.")
MISSING_TRY = (
    "**Try this:** by default every *sunny* outlook of the training data is hidden and the instance "
    "(row 8, a sunny day without play) has lost its outlook. Under MAR the classifiers learn that "
    "outlooks are overcast or rainy, and the [NBC](/glossary#nbc) and the MAR NCC both answer *yes*, "
    "confidently and "
    "wrongly; declaring outlook not MAR returns {no, yes}, with the truth. Switch the mechanism to "
    "*at random* and compare.")
MISSING_COUNTS = (
    "With x = t(b) the share of the s [hidden instances](/glossary#s) that the least favourable prior "
    "gives to b (the "
    "rest goes to a), the smallest ratio is the minimum over x of the product below (N: counts; "
    "N_j(c): rows of class c where feature j is present). A feature missing under MAR leaves the product; "
    "a missing value declared not MAR takes the **least favourable value**; a feature not MAR in training "
    "gives b every one of its missing cells on the instance's value — the top of the interval "
    "[observed, observed + missing] — and a its observed count. The values a hidden cell may take are "
    "those seen in training: hide every *sunny* and *sunny* is no longer one of them.")
