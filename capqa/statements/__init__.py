"""Statements: (question, answer) -> declarative statement, by a seq2seq model or by rules;
training and evaluating the statement model."""
