"""Lesson 8.2 as a learner works it end to end: what to type and what the page says back."""

from __future__ import annotations

import re

from plans import Plan

PLAN = Plan(
    slug="8-2",
    right_prediction="Key 1.",
    wrong_prediction="Key 3.",
    heads={"one head, dimension 2": "The output is 1.1740, 0.7643."},
    right_answers={
        "The score for key 3": "1",
        "The scaled score for key 1": "1,4142",
        "The weight on key 1": ".609",
        "The weight on key 3": "0.3",
        "The output, first entry": "1.174",
        "The output, second entry": "0.7643",
    },
    wrong_answers={
        "The scaled score for key 1": "2",  # the score before scaling
        "The weight on key 1": "0.7020",  # the softmax of the unscaled scores
        "The output, second entry": "abc",
    },
    one_wrong={"The weight on key 3": "2.0281"},  # key 3's exponential
    right_reading="The vectors have two coordinates",
    wrong_reading="Without it the weights would not add up to 1.",
    wrong_reading_says=re.compile(r"^The softmax makes the weights add up to 1 with any scale"),
    slips={
        "The scaled score for key 1": "Not within 0.02. That is key 1's score before scaling. "
                                      "Multiply it by 1 over the square root of 2.",
        "The weight on key 1": "Not within 0.02. That is the weight on key 1 without the scale: "
                               "the softmax of the raw scores. Scale the scores first.",
        "The output, second entry": "“abc” is not a number.",
    },
    typed=(
        ("The output, second entry", "0,7643", "read as 0.7643"),
        ("The weight on key 1", "609/1000", "read as 0.609"),
        ("The weight on key 3", "3.003e-1", "read as 0.3003"),
        ("The scaled score for key 1", "1.4142", "read as 1.4142"),
        ("The score for key 3", "+1", "read as 1"),
    ),
    hint=re.compile(r"^Key 1 scores 2 and key 3 scores 1\."),
    compare=("You predicted: Key 3. The largest weight is 0.6090 on key 1. So the numbers say: "
             "Key 1."),
    notebook=(
        r"single head \(scale 1/sqrt\(2\) = 0\.7071\)",
        r"weights\s+0\.6090, 0\.0730, 0\.3003, 0\.0177",
        r"output, weights against values\s+1\.1740, 0\.7643",
        r"sum of the weights 1\.0000",
    ),
)
