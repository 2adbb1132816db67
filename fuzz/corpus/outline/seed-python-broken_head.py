"""An option parser caught mid-edit: `add_argument` lost the `(` of its parameter list."""


class OptionParser:
    def __init__(self, ctx=None):
        self.ctx = ctx
        self._opts = []
        self._args = []

    def add_option(self, obj, opts, dest, action=None):
        self._opts.append((obj, opts, dest, action))

    def add_argument
        self, obj, dest, nargs=1
    ):
        self._args.append((obj, dest, nargs))

    def parse_args(self, args):
        return args, self._opts, self._args

