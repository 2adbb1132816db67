"""A module with a syntax error in the middle."""

import json


class Settings:
    def __init__(self, path):
        self.path = path

    def load(self):
        with open(self.path) as handle:
            return json.load(handle

    def save(self, data):
        with open(self.path, "w") as handle:
            json.dump(data, handle)


def default_path() -> str:
    return "settings.json"
