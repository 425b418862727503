# lit configuration of the IR-text tests: each file's RUN lines run vichls-opt on the file
# and check its output with filecheck (both on PATH: the test extra installs them).
import lit.formats

config.name = "vichls"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir"]
config.test_source_root = __import__("os").path.dirname(__file__)
config.environment["PATH"] = __import__("os").environ.get("PATH", "")
# a checkout run with PYTHONPATH=<checkout>/src (beside another one installed) tests its own code
if "PYTHONPATH" in __import__("os").environ:
    config.environment["PYTHONPATH"] = __import__("os").environ["PYTHONPATH"]
