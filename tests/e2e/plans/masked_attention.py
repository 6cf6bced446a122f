"""Lesson 8.3 as a learner works it end to end: what to type and what the page says back."""

from __future__ import annotations

import re

from plans import Plan

RISES = "It rises: keys 1 and 2 share what keys 3 and 4 gave up."

PLAN = Plan(
    slug="8-3",
    right_prediction=RISES,
    wrong_prediction="It stays as it was: the mask only takes keys 3 and 4 away.",
    heads={"one head, dimension 2, masked": "The output is 0.8930, 0.2141."},
    right_answers={
        "The scaled score for key 2": "−0.7071",
        "The sum of the exponentials": "4,6063",
        "The weight on key 1": ".893",
        "The weight on key 3, which is masked": "0",
        "The output, first entry": "0.893",
        "The output, second entry": "0.2141",
    },
    wrong_answers={
        "The weight on key 1": "0.6090",  # 8.2's weight, unmasked
        "The output, second entry": "0.1460",  # keys 3 and 4 struck out after the softmax
        "The sum of the exponentials": "abc",
    },
    one_wrong={"The weight on key 3, which is masked": "0.1514"},  # its score set to 0
    right_reading="e raised to minus infinity is exactly 0",
    wrong_reading="A score of 0 would hide the key just as well; minus infinity is a convention.",
    wrong_reading_says=re.compile(r"^A score of 0 is not a hidden key: e raised to 0 is 1"),
    slips={
        "The weight on key 1": "Not within 0.02. That is the weight on key 1 in 8.2, with no "
                               "mask.",
        "The output, second entry": "Not within 0.02. That is the output with the later keys "
                                    "struck out after the softmax",
        "The sum of the exponentials": "“abc” is not a number.",
    },
    typed=(
        ("The output, second entry", "2141/10000", "read as 0.2141"),
        ("The sum of the exponentials", "4,6063", "read as 4.6063"),
        ("The weight on key 1", "8.93e-1", "read as 0.893"),
        ("The scaled score for key 2", "−0.7071", "read as -0.7071"),
        ("The weight on key 3, which is masked", "+0", "read as 0"),
    ),
    hint=re.compile(r"^Keys 1 and 2 scale to 1\.4142 and -0\.7071, and keys 3 and 4 are masked"),
    compare=("You predicted: It stays as it was: the mask only takes keys 3 and 4 away. Key 1's "
             f"weight is 0.6090 in 8.2 and 0.8930 with the mask. So the numbers say: {RISES}"),
    notebook=(
        r"masked, keys after position 2\s+1\.4142, -0\.7071, -inf, -inf",
        r"output, weights against values\s+0\.8930, 0\.2141",
    ),
)
