"""The one exception services raise for the user: a translated message, optionally for a field."""


class ServiceError(Exception):
    def __init__(self, message, field: str | None = None):
        super().__init__(str(message))
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return str(self.message)
