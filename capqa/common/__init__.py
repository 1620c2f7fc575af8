"""What every room shares: the paper's constants, paths, optional extras, quoting, strict JSON and
tables, input validation, CSV-injection escaping."""
