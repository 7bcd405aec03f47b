"""What is here only to be fast: nothing in it changes what the site does.

``compiled`` reads and writes whose SQL is built once; ``prepared`` PostgreSQL prepared
statements for them; ``after_answer`` work done after a request's answer has gone;
``warm`` a web worker made ready before its first request. Each piece's figure, with and
without it: bench/README.md.
"""
