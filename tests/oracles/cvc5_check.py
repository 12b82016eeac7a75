"""Runs an SMT-LIB file through cvc5 (Python bindings from .deps/cvc5) and prints
the answer of each (check-sat): sat, unsat or unknown. Used by the export tests
as a second, independent solver."""
import sys

import cvc5


def main(path):
    solver = cvc5.Solver()
    solver.setOption("produce-models", "true")
    symbols = cvc5.SymbolManager(solver)
    parser = cvc5.InputParser(solver, symbols)
    parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, path)
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        output = command.invoke(solver, symbols)
        if output.strip() in ("sat", "unsat", "unknown"):
            print(output.strip())


if __name__ == "__main__":
    main(sys.argv[1])
