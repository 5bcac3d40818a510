"""``python -m credal_core.experiments``: prints our Table 1 beside the paper's."""
import subprocess
import sys

import pytest

from credal_core.experiments.__main__ import main


def test_table1_prints_ours_beside_the_papers(capsys, tmp_path):
    out_csv = tmp_path / "runs.csv"
    assert main(["table1", "--n-theta", "2", "--n-train", "2", "--n-test", "300", "--jobs", "1",
                 "--csv", str(out_csv)]) == 0
    out = capsys.readouterr()
    assert "paper Det" in out.out and "NCC_ε=0.25" in out.out and "LNCC_α=0.95" in out.out
    for printed in ("90.1", "97.9", "54.5", "51.4"):          # 000 Table 1 values
        assert printed in out.out
    assert "4/6 tasks" in out.err or "6/6 tasks" in out.err      # progress bar on stderr
    assert out_csv.read_text().startswith("setting,")


def test_fig5_prints_determinacy_by_sample_size(capsys):
    assert main(["fig5", "--n-theta", "1", "--n-train", "2", "--n-test", "200", "--sizes", "20,60",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Fig. 5" in out and "NCC_ε=0.05" in out and "60" in out


def test_bad_settings_exit_with_a_message(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["table1", "--sizes", "1"])
    assert stop.value.code == 2
    assert "smaller than the number of classes" in capsys.readouterr().err


def test_module_runs_as_a_script():
    done = subprocess.run([sys.executable, "-m", "credal_core.experiments", "fig5", "--n-theta", "1",
                           "--n-train", "1", "--n-test", "100", "--jobs", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Fig. 5" in done.stdout


@pytest.mark.parametrize("args,message", [
    (["--seed", "-1"], "non-negative"),
    (["--csv", "/nonexistent/folder/x.csv"], "cannot write into"),
])
def test_bad_options_are_refused_before_the_run(capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        main(["table1", "--n-theta", "1", "--n-train", "1", "--n-test", "50", *args])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_a_run_without_the_papers_rows_says_so(capsys):
    assert main(["table1", "--n-theta", "1", "--n-train", "1", "--n-test", "100", "--sizes", "10",
                 "--jobs", "1"]) == 0
    assert "none of the paper's rows" in capsys.readouterr().out


def test_an_unreachable_scheduler_is_a_message(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["fig5", "--n-theta", "1", "--n-train", "1", "--n-test", "50", "--scheduler", "tcp://127.0.0.1:9"])
    assert stop.value.code == 2 and "could not run on the scheduler" in capsys.readouterr().err
