"""Tests caught mid-edit: a call in `test_from_object` is not closed yet, so the functions after
it parse as part of its arguments."""

import json
import os

import pytest

from flask import Flask

TEST_KEY = "foo"


def common_object_test(app):
    assert app.secret_key == "config"
    assert app.config["TEST_KEY"] == "foo"


def test_from_object():
    app = Flask(__name__
    app.config.from_object(__name__)
    common_object_test(app)


def test_from_file_json():
    app = Flask(__name__)
    current_dir = os.path.dirname(os.path.abspath(__file__))
    app.config.from_file(os.path.join(current_dir, "static", "config.json"), json.load)
    common_object_test(app)


class TestPrefixedEnv:
    def test_string(self, monkeypatch):
        monkeypatch.setenv("FLASK_STRING", "value")
        app = Flask(__name__)
        assert app.config["STRING"] == "value"

    def test_missing(self):
        with pytest.raises(KeyError):
            Flask(__name__).config["MISSING"]
