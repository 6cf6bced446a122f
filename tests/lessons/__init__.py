"""Each lesson's own tests, named as its module is, with its numpy oracle."""
