"""``[tool.zerograd-guard]``: discovery, precedence, excludes, per-file-ignores, errors."""

from __future__ import annotations

from cli_helpers import BUGGY, CORRECT, write


def _pyproject(root, body: str) -> None:
    write(root, "pyproject.toml", f"[project]\nname = 'demo'\n\n[tool.zerograd-guard]\n{body}\n")


def test_config_found_by_walking_up_from_the_file(tmp_path, lint):
    _pyproject(tmp_path / "proj", 'ignore = ["ZG101"]')
    write(tmp_path, "proj/pkg/deep/bad.py", BUGGY)
    write(tmp_path, "other/bad.py", BUGGY)
    result = lint(".")
    assert result.code == 1
    assert "other/bad.py:" in result.out
    assert "proj/" not in result.out


def test_pyproject_without_the_table_is_skipped(tmp_path, lint):
    _pyproject(tmp_path, 'ignore = ["ZG1"]')
    write(tmp_path, "sub/pyproject.toml", "[project]\nname = 'inner'\n")
    write(tmp_path, "sub/bad.py", BUGGY)
    assert lint("sub/bad.py").code == 0


def test_command_line_wins_over_config(tmp_path, lint):
    _pyproject(tmp_path, 'ignore = ["ZG101"]')
    write(tmp_path, "bad.py", BUGGY)
    assert lint("bad.py").code == 0
    assert lint("--select", "ZG101", "bad.py").code == 1
    _pyproject(tmp_path, 'select = ["ZG101"]')
    assert lint("--ignore", "ZG1", "bad.py").code == 0
    assert lint("--select", "ALL", "bad.py").code == 1


def test_select_by_prefix(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    assert lint("--select", "ZG1", "bad.py").code == 1
    assert lint("--select", "ZG102", "bad.py").code == 0


def test_unknown_selector_is_a_clean_error(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    for option in ("--select", "--ignore"):
        result = lint(option, "ZG9", "bad.py")
        assert result.code == 2
        assert result.err.startswith("error: unknown rule selector 'ZG9'")
        assert "Traceback" not in result.err
    _pyproject(tmp_path, 'select = ["XX1"]')
    result = lint("bad.py")
    assert (result.code, "Traceback" in result.err) == (2, False)
    assert "XX1" in result.err


def test_per_file_ignores(tmp_path, lint):
    _pyproject(tmp_path, '[tool.zerograd-guard.per-file-ignores]\n"legacy/*.py" = ["ZG101"]')
    write(tmp_path, "legacy/old.py", BUGGY)
    write(tmp_path, "new.py", BUGGY)
    result = lint(".")
    assert "new.py:" in result.out
    assert "legacy" not in result.out


def test_exclude_and_force_exclude(tmp_path, lint):
    _pyproject(tmp_path, 'exclude = ["generated", "scratch_*.py"]')
    write(tmp_path, "generated/bad.py", BUGGY)
    write(tmp_path, "scratch_1.py", BUGGY)
    write(tmp_path, "kept.py", BUGGY)
    result = lint(".")
    assert [line.split(":")[0] for line in result.out.splitlines()[:-2]] == ["kept.py"]
    # Named explicitly: linted, unless --force-exclude (what pre-commit needs).
    assert lint("scratch_1.py").code == 1
    assert lint("--force-exclude", "scratch_1.py", "generated/bad.py").code == 0


def test_default_skips(tmp_path, lint):
    skipped = (".git", "build", "dist", "node_modules", "__pycache__", "venv", ".venv")
    for folder in (*skipped, ".ipynb_checkpoints"):
        write(tmp_path, f"{folder}/bad.py", BUGGY)
    write(tmp_path, "myenv/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "myenv/lib/bad.py", BUGGY)
    write(tmp_path, "src/bad.py", BUGGY)
    result = lint(".")
    assert [line.split(":")[0] for line in result.out.splitlines()[:-2]] == ["src/bad.py"]


def test_extra_call_names_reach_the_analysis(tmp_path, lint):
    # tidy_up() is unknown to the analyzer until configured as a clear call.
    cleared = BUGGY.replace("        loss = torch.nn", "        tidy_up()\n        loss = torch.nn")
    write(tmp_path, "custom_clear.py", cleared)
    # push_grads(loss) is a backward only once configured as one.
    write(tmp_path, "custom_backward.py", BUGGY.replace("loss.backward()", "push_grads(loss)"))
    assert lint("custom_clear.py").code == 1
    assert lint("custom_backward.py").code == 0
    _pyproject(tmp_path, 'extend-clear-calls = ["tidy_up"]\nextend-backward-calls = ["push_grads"]')
    assert lint("custom_clear.py").code == 0
    assert lint("custom_backward.py").code == 1


def test_invalid_toml_and_unknown_keys(tmp_path, lint):
    write(tmp_path, "ok.py", CORRECT)
    write(tmp_path, "pyproject.toml", "[tool.zerograd-guard\nselect = [\n")
    result = lint("ok.py")
    assert result.code == 2
    assert "pyproject.toml: error: invalid TOML" in result.err
    _pyproject(tmp_path, 'selekt = ["ZG101"]')
    result = lint("ok.py")
    assert result.code == 2
    assert "unknown key 'selekt'" in result.err
    _pyproject(tmp_path, 'ignore = "ZG101"')
    assert "must be a list of strings" in lint("ok.py").err
    assert "Traceback" not in result.err


def test_explicit_config_file(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "conf/zg.toml", 'ignore = ["ZG101"]\n')
    assert lint("--config", "conf/zg.toml", "bad.py").code == 0
    result = lint("--config", "missing.toml", "bad.py")
    assert result.code == 2
    assert "config file not found" in result.err
