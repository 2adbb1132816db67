"""A parser caught mid-edit: `add_argument` lost the `(` of its parameter list, and recovery
takes the class's first methods into an error between the class's name and its body."""


def first(items):
    try:
        return items.pop()
    except IndexError:
        return None


class Parser:
    def __init__(self):
        self.args = []

    def add_option(self, option):
        self.args.append(option)

    def add_argument
        self, argument
    ):
        self.args.append(argument)

    def parse_args(self, args):
        return args
