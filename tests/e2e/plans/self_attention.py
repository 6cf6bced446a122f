"""Lesson 8.4 as a learner works it end to end: what to type and what the page says back."""

from __future__ import annotations

import re

from plans import Plan

TOKEN_4 = "Token 4."

PLAN = Plan(
    slug="8-4",
    right_prediction=TOKEN_4,
    wrong_prediction="Token 3.",
    heads={
        "token 1 asks, dimension 2": "The output is -2.6825, 1.7898.",
        "token 2 asks, dimension 2": "The output is -2.7561, 1.8646.",
        "token 3 asks, dimension 2": "The output is -0.4983, 0.1194.",
        "token 4 asks, dimension 2": "The output is 1.7260, -0.8461.",
    },
    right_answers={
        "Token 4's query, first entry": "−2",
        "Token 4's scaled score on token 3": "2.1213",
        "The sum of token 4's exponentials": "9,1374",
        "Token 3's weight on token 4": ".5052",
        "Token 1's weight on token 2": "0.8457",
        "Token 3's output, second entry": "0.1194",
    },
    wrong_answers={
        "Token 3's weight on token 4": "0.1228",  # the tokens as they are, unprojected
        "The sum of token 4's exponentials": "20.6071",  # the scale forgotten
        "Token 4's query, first entry": "abc",
    },
    one_wrong={"Token 1's weight on token 2": "0.2828"},  # W_Q and W_K transposed
    right_reading="two different matrices",
    wrong_reading="Self-attention leaves each token out of its own row.",
    wrong_reading_says=re.compile(r"^Every token is in its own row: token 1 gives itself 0\.1014"),
    slips={
        "Token 3's weight on token 4": "Not within 0.02. That is the weight for the tokens as "
                                       "they are, unprojected.",
        "The sum of token 4's exponentials": "Not within 0.02. That is the sum with the scale "
                                             "forgotten",
        "Token 4's query, first entry": "“abc” is not a number.",
    },
    typed=(
        ("Token 3's output, second entry", "1194/10000", "read as 0.1194"),
        ("The sum of token 4's exponentials", "9,1374", "read as 9.1374"),
        ("Token 1's weight on token 2", "8.457e-1", "read as 0.8457"),
        ("Token 4's query, first entry", "−2", "read as -2"),
        ("Token 4's scaled score on token 3", "+2.1213", "read as 2.1213"),
    ),
    hint=re.compile(r"^Token 3 is \[1, 0\], so its query is W_Q times it, \[1, 1\]\."),
    compare=("You predicted: Token 3. In token 3's row, the largest weight is 0.5052 on token 4. "
             f"So the numbers say: {TOKEN_4}"),
    notebook=(
        r"token 3 1, 0 +query 1, 1 +key -1, 1 +value 2, -1",
        r"token 3  0\.1228, 0\.1228, 0\.2491, 0\.5052   sum 1\.0000",
    ),
)
