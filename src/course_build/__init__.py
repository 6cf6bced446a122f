"""The site's build: build-time only, never shipped to the browser or in the wheel."""
