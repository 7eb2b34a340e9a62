"""``prompts/list``, ``prompts/get`` and completions, derived from the domain's prompt table.

A refused prompt request is a JSON-RPC -32602 whose data is a ``tool-error.v1`` document
(never the SDK's default code 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from mcp import types

from automium import guidance
from automium.errors import AutomiumError
from automium.mcp_server.errors import refused_params


@cache
def list_prompts_result() -> types.ListPromptsResult:
    return types.ListPromptsResult(
        prompts=[
            types.Prompt(
                name=guide.name,
                title=guide.title,
                description=guide.description,
                arguments=[
                    types.PromptArgument(
                        name=name, description=description, required=name not in guide.optional
                    )
                    for name, description in guide.arguments
                ],
            )
            for guide in guidance.GUIDES
        ]
    )


def get(name: str, arguments: Mapping[str, str] | None) -> types.GetPromptResult:
    try:
        guide = guidance.find(name)
        text = guide.render(arguments)
    except AutomiumError as exc:
        raise refused_params(exc) from None
    return types.GetPromptResult(
        description=guide.description,
        messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
        ],
    )


def complete(prompt: str, argument: str, value: str, context: Mapping[str, str]) -> list[str]:
    """Completion values: none for an unknown prompt or argument."""
    return guidance.complete(prompt, argument, value, context)
