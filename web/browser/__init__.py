"""The page's DOM code, the only Python that touches the DOM or storage, by what it serves:
`dom` the shared helpers, `lesson` a lesson page, `explore` its Explore section, `track` the
track. The build ships this package in the lessons' archive beside attention_lessons."""
