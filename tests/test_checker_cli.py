"""`pnp check`: JSON and table output, exit codes 0/1/2; the wargame chit-pool counts."""
from __future__ import annotations

import json
from fractions import Fraction

from ortools.sat.python import cp_model

from generator.cli import main
from solver.counts.wargame import count_mixes
from test_checker_mini import components, write_game


def test_json_report_and_exit_0(tmp_path, capsys):
    folder = write_game(tmp_path)
    assert main(["check", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "mini-dwarves" and report["ok"]
    assert report["player_counts"]["3"]["dealt"] == {"dwarf-cards": 3}
    assert set(report["derived"]["p_no_saboteur"]) == {"3", "4", "5", "6", "7", "8"}


def test_error_finding_exits_1_and_prints_a_table(tmp_path, capsys):
    folder = write_game(tmp_path, comps=components(loyal_blue=1))
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "setup-infeasible" in out and "dwarf-blue-loyal" in out and "errors" in out


def test_unusable_input_exits_2_with_located_problems(tmp_path, capsys):
    folder = write_game(tmp_path)
    (folder / "setup.yaml").write_text("steps:\n  - shufle: dwarf-cards\n", encoding="utf-8")
    assert main(["check", str(folder), "--json"]) == 2
    err = capsys.readouterr().err
    assert "setup.yaml:2:" in err and "Traceback" not in err


def test_no_game_is_a_usage_problem(capsys):
    assert main(["check"]) == 2
    assert "no game given" in capsys.readouterr().err


def test_chit_mix_counts_agree_with_cp_sat_enumeration():
    """The dynamic-programming count of mixes (values 1-5, 1 and 5 present) against CP-SAT."""
    for size, exact in ((29, False), (12, False), (50, True)):
        m = cp_model.CpModel()
        c = {v: m.new_int_var(1 if v in (1, 5) else 0, size, f"c{v}") for v in range(1, 6)}
        m.add(sum(c.values()) == size)
        points = sum(v * c[v] for v in c)
        if exact:
            m.add(100 * points == 234 * size)
        else:
            m.add(1000 * points >= 2335 * size)
            m.add(1000 * points < 2345 * size)

        class Count(cp_model.CpSolverSolutionCallback):
            n = 0

            def on_solution_callback(self):
                self.n += 1

        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        counter = Count()
        solver.solve(m, counter)
        assert count_mixes([1, 2, 3, 4, 5], size, Fraction(234, 100), exact, (1, 5)) == counter.n
