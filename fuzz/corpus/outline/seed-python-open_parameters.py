"""A store caught mid-edit: `add`'s parameter list is not closed yet, so `get` reads as the rest of
its parameters."""


class Store:
    def __init__(self):
        self.items = {}

    def add(self, key, value
        self.items[key] = value

    def get(self, key):
        return self.items.get(key)
