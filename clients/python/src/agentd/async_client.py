"""The asyncio client: the same calls as :class:`agentd.Client`, as coroutines."""

from __future__ import annotations

import asyncio
import inspect
import os
from typing import IO, Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import params as p
from .async_connection import AsyncConnection
from .async_subscription import AsyncSubscription
from .async_transport import AsyncProcessTransport, AsyncTransport
from .async_turn import AsyncTurn
from .errors import ProtocolError
from .paths import default_socket_path
from .start_daemon import connect_starting_async
from .permissions import PermissionHandler, PermissionRequest, failed_handler_response, permission_response, reject
from .subscription import EVENT, session_filter
from .tools import Tool, ToolFunction, find_tool, registered_names, tool_arguments, tool_failure, tool_result
from .transport import DEFAULT_COMMAND
from .turn import SESSION_UPDATE, PromptResult


class AsyncClient:
    """An asyncio agentd client over a Unix socket or a daemon it spawns.

    Create it with ``await AsyncClient.connect(path)`` or ``await AsyncClient.spawn(...)``.
    ``start_prompt`` returns at once, so a turn can be steered or aborted while it runs.
    Tool functions and permission handlers may be coroutine functions; plain functions run
    in a worker thread so they cannot stall the event loop.

    >>> async with await AsyncClient.connect(socket_path) as client:  # doctest: +SKIP
    ...     session = await client.new_session(".")
    ...     print((await client.prompt(session, "Say hi")).text)
    """

    def __init__(
        self,
        transport: AsyncTransport,
        *,
        on_permission: Optional[PermissionHandler] = None,
        on_protocol_error: Optional[Callable[[ProtocolError], None]] = None,
    ) -> None:
        """Start on a connected transport; call :meth:`initialize` next (``connect`` and ``spawn`` do)."""
        self._connection = AsyncConnection(transport, on_protocol_error)
        self._tools: Dict[str, Tool] = {}
        self._permission_handler: PermissionHandler = on_permission or reject
        self._connection.on_request("session/request_permission", self._answer_permission)
        self._connection.on_request("tools/call", self._answer_tool_call)
        #: The ``initialize`` answer, once :meth:`initialize` ran.
        self.info: Dict[str, Any] = {}

    @classmethod
    async def spawn(
        cls,
        command: Sequence[str] = DEFAULT_COMMAND,
        *,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[IO[bytes]] = None,
        events: bool = False,
        timeout: Optional[float] = 30.0,
        **options: Any,
    ) -> "AsyncClient":
        """Start ``agentd serve --stdio`` (or ``command``), talk to it over its stdio, and initialize."""
        return await cls._started(await AsyncProcessTransport.spawn(command, env, cwd, stderr), events, None, timeout, options)

    @classmethod
    async def connect(
        cls,
        socket_path: Optional[Union[str, "os.PathLike[str]"]] = None,
        *,
        events: bool = False,
        token: Optional[str] = None,
        timeout: Optional[float] = 30.0,
        start: bool = False,
        start_command: Optional[Sequence[str]] = None,
        env: Optional[Mapping[str, str]] = None,
        **options: Any,
    ) -> "AsyncClient":
        """Connect to the daemon's Unix socket (default: its default path) and initialize.

        ``start=True`` starts the shared daemon first when none listens, as :meth:`Client.connect` does.
        """
        path = socket_path or default_socket_path(env)
        if not start:
            return await cls._started(await AsyncTransport.connect_unix(path), events, token, timeout, options)
        transport = await connect_starting_async(lambda: AsyncTransport.connect_unix(path), path, start_command, env)
        return await cls._started(transport, events, token, timeout, options)

    @classmethod
    async def _started(cls, transport: AsyncTransport, events: bool, token: Optional[str], timeout: Optional[float], options: Dict[str, Any]) -> "AsyncClient":
        client = cls(transport, **options)
        try:
            await asyncio.wait_for(client.initialize(events, token), timeout)
        except BaseException:
            await client.close()
            raise
        return client

    async def initialize(self, events: bool = False, token: Optional[str] = None) -> Dict[str, Any]:
        """Send ``initialize`` (the first request on every connection); returns and keeps the answer."""
        self.info = await self.request("initialize", p.initialize_params(events, token))
        return self.info

    # -- sessions -------------------------------------------------------------------------

    async def new_session(self, cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> str:
        """Create a session working in ``cwd``; returns its id."""
        return (await self.request("session/new", p.new_session_params(cwd, mcp_servers)))["sessionId"]

    async def load_session(self, session_id: str, cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
        """Open a stored session; its history arrives as updates before this returns."""
        return await self.request("session/load", p.load_session_params(session_id, cwd, mcp_servers))

    async def list_sessions(self, cwd: Optional[str] = None) -> List[Dict[str, Any]]:
        """Stored sessions, newest first (every page), optionally of one working directory."""
        sessions: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        while True:
            query: Dict[str, Any] = {"cwd": os.path.abspath(cwd)} if cwd else {}
            if cursor:
                query["cursor"] = cursor
            page = await self.request("session/list", query)
            sessions.extend(page.get("sessions", []))
            cursor = page.get("nextCursor")
            if not cursor:
                return sessions

    async def close_session(self, session_id: str) -> None:
        """Cancel any running turn and free the session; its history stays stored."""
        await self.request("session/close", p.session_params(session_id))

    async def set_mode(self, session_id: str, mode_id: str) -> None:
        """Switch the session's agent (``build``, ``plan``, ``explore``, ...)."""
        await self.request("session/set_mode", {"sessionId": session_id, "modeId": mode_id})

    async def set_config_option(self, session_id: str, config_id: str, value: Union[str, bool]) -> List[Dict[str, Any]]:
        """Change a setting such as ``model``; returns every option with its new value."""
        request: Dict[str, Any] = {"sessionId": session_id, "configId": config_id, "value": value}
        if isinstance(value, bool):
            request["type"] = "boolean"
        return (await self.request("session/set_config_option", request))["configOptions"]

    # -- turns ----------------------------------------------------------------------------

    async def prompt(self, session_id: str, prompt: p.PromptInput, *, delivery: Optional[str] = None) -> PromptResult:
        """Run a turn and wait for it: returns the stop reason and the text of the reply.

        ``delivery`` (``"steer"`` or ``"followUp"``) joins a running turn instead of failing
        with SessionBusy. Cancelling the awaiting task does not stop the turn (``abort`` does).
        """
        return await self.start_prompt(session_id, prompt, delivery=delivery)

    def start_prompt(self, session_id: str, prompt: p.PromptInput, *, delivery: Optional[str] = None) -> AsyncTurn:
        """Send a prompt and return at once; await the AsyncTurn for its result or ``async for`` its updates."""
        return AsyncTurn(self._connection, session_id, prompt, delivery)

    async def steer(self, session_id: str, prompt: p.PromptInput, *, interrupt: bool = False) -> int:
        """Deliver a message into the running turn at the next safe point (at once with ``interrupt``); returns the queue length."""
        return (await self.request("session/steer", p.steer_params(session_id, prompt, interrupt)))["queued"]

    async def follow_up(self, session_id: str, prompt: p.PromptInput) -> int:
        """Queue a message for when the agent would otherwise stop; returns the queue length."""
        return (await self.request("session/followUp", p.follow_up_params(session_id, prompt)))["queued"]

    async def abort(self, session_id: str, *, keep_queues: bool = False) -> None:
        """Stop the running turn now; returns once model stream, tools and requests have stopped."""
        await self.request("session/abort", p.abort_params(session_id, keep_queues))

    def cancel(self, session_id: str) -> None:
        """ACP ``session/cancel``: the running turn ends with ``cancelled`` (does not wait)."""
        self._connection.notify("session/cancel", p.session_params(session_id))

    # -- tools and permissions --------------------------------------------------------------

    async def register_tool(
        self,
        name: str,
        description: str,
        schema: Dict[str, Any],
        fn: ToolFunction,
        *,
        kind: Optional[str] = None,
        access: Optional[str] = None,
        session_id: Optional[str] = None,
        timeout_ms: Optional[int] = None,
    ) -> List[str]:
        """Offer a tool the model can call; ``fn(arguments)`` (a coroutine function, or a plain one run
        in a worker thread) answers each call. An exception is reported to the model as a failed call.
        Returns the daemon's ``registered`` list (this call's names)."""
        tool = Tool(name, description, schema, fn, kind, access, session_id, timeout_ms)
        self._tools[name] = tool
        return registered_names(await self.request("tools/register", {"tools": [tool.definition()]}))

    async def unregister_tool(self, name: str) -> bool:
        """Remove a tool this client registered; False if it had none by that name."""
        self._tools.pop(name, None)
        return name in (await self.request("tools/unregister", {"names": [name]})).get("unregistered", [])

    async def list_tools(self, session_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """The tools the model can call (built-in, client and MCP), sorted by name."""
        return (await self.request("tools/list", {"sessionId": session_id} if session_id else {}))["tools"]

    def on_permission(self, handler: Optional[PermissionHandler]) -> None:
        """Decide ``session/request_permission`` with ``handler(request) -> optionId | None``; None restores reject-all."""
        self._permission_handler = handler or reject

    # -- notifications ------------------------------------------------------------------------

    def updates(self, session_id: Optional[str] = None) -> AsyncSubscription:
        """An async iterator of ``session/update`` params (of one session, or all); close it when done."""
        return AsyncSubscription(self._connection, session_filter(SESSION_UPDATE, session_id))

    def events(self, session_id: Optional[str] = None) -> AsyncSubscription:
        """An async iterator of ``agentd/event`` params; needs ``events=True`` at connect."""
        return AsyncSubscription(self._connection, session_filter(EVENT, session_id))

    def on_update(self, callback: Callable[[Dict[str, Any]], None], session_id: Optional[str] = None) -> Callable[[], None]:
        """Call ``callback(params)`` (a plain function) for each ``session/update``; returns an unsubscribe."""
        accept = session_filter(SESSION_UPDATE, session_id)
        return self._connection.add_listener(lambda method, params: callback(params) if accept(method, params) else None)

    # -- raw access and lifecycle -------------------------------------------------------------

    async def request(self, method: str, params: Any = None) -> Any:
        """Send any request and wait for its result; an error answer raises AgentdError."""
        return await self._connection.request(method, params)

    def notify(self, method: str, params: Any = None) -> None:
        """Send any notification."""
        self._connection.notify(method, params)

    @property
    def connection(self) -> AsyncConnection:
        """The JSON-RPC connection underneath (futures, raw handlers, ``$/cancel_request``)."""
        return self._connection

    @property
    def process(self) -> Optional["asyncio.subprocess.Process"]:
        """The daemon process this client spawned (None for a socket connection)."""
        return getattr(self._connection.transport, "process", None)

    @property
    def closed(self) -> bool:
        """True once the connection has ended."""
        return self._connection.closed

    async def close(self) -> None:
        """Close the connection (and end a spawned daemon); pending calls fail with ConnectionClosedError."""
        await self._connection.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *_exc: Any) -> None:
        await self.close()

    # -- daemon requests ----------------------------------------------------------------------

    async def _answer_permission(self, params: Any) -> Dict[str, Any]:
        request = PermissionRequest.from_params(params)
        try:
            return permission_response(request, await _run(self._permission_handler, request))
        except Exception as error:  # noqa: BLE001 - a failing handler rejects
            return failed_handler_response(request, error)

    async def _answer_tool_call(self, params: Any) -> Dict[str, Any]:
        tool = find_tool(self._tools, params)
        try:
            return tool_result(await _run(tool.fn, tool_arguments(params)))
        except Exception as error:  # noqa: BLE001 - the model is told the tool failed
            return tool_failure(tool.name, error)


async def _run(fn: Callable[[Any], Any], argument: Any) -> Any:
    """Await a coroutine function; run a plain function in a worker thread (and await what it returns, if awaitable)."""
    if inspect.iscoroutinefunction(fn):
        return await fn(argument)
    result = await asyncio.to_thread(fn, argument)
    return await result if inspect.isawaitable(result) else result
