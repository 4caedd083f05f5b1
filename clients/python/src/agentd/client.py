"""The synchronous client: blocking calls, a reader thread underneath."""

from __future__ import annotations

import os
import subprocess
from typing import IO, Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import params as p
from .connection import Connection
from .errors import ProtocolError
from .paths import default_socket_path
from .permissions import PermissionHandler, PermissionRequest, failed_handler_response, permission_response, reject
from .subscription import EVENT, Subscription, session_filter
from .start_daemon import connect_starting
from .sync_turn import Turn
from .tools import Tool, ToolFunction, find_tool, registered_names, tool_arguments, tool_failure, tool_result
from .transport import DEFAULT_COMMAND, ProcessTransport, SocketTransport, Transport
from .turn import SESSION_UPDATE, PromptResult
from .wait import wait_result


class Client:
    """A blocking agentd client over a Unix socket or a daemon it spawns.

    Every method may be called from any thread; ``start_prompt`` returns at once so a
    turn can be steered or aborted while it runs. Daemon requests (permission questions,
    calls of tools this client registered) are answered on their own threads.

    >>> with Client.connect(socket_path) as client:  # doctest: +SKIP
    ...     session = client.new_session(".")
    ...     print(client.prompt(session, "Say hi").text)
    """

    def __init__(
        self,
        transport: Transport,
        *,
        on_permission: Optional[PermissionHandler] = None,
        events: bool = False,
        token: Optional[str] = None,
        on_protocol_error: Optional[Callable[[ProtocolError], None]] = None,
        timeout: Optional[float] = 30.0,
    ) -> None:
        """Start on a connected transport and send ``initialize`` (within ``timeout`` seconds)."""
        self._connection = Connection(transport, on_protocol_error)
        self._tools: Dict[str, Tool] = {}
        self._permission_handler: PermissionHandler = on_permission or reject
        self._connection.on_request("session/request_permission", self._answer_permission)
        self._connection.on_request("tools/call", self._answer_tool_call)
        try:
            #: The ``initialize`` answer: ``agentInfo``, ``agentCapabilities``, ``_meta.agentd.features``, ...
            self.info: Dict[str, Any] = self.request("initialize", p.initialize_params(events, token), timeout=timeout)
        except BaseException:
            self._connection.close()
            raise

    @classmethod
    def spawn(
        cls,
        command: Sequence[str] = DEFAULT_COMMAND,
        *,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[IO[bytes]] = None,
        **options: Any,
    ) -> "Client":
        """Start ``agentd serve --stdio`` (or ``command``) and talk to it over its stdio.

        ``env`` replaces the environment (None inherits it); the daemon's stderr is kept
        for error messages unless ``stderr`` names a file to write it to. Closing the
        client ends the daemon.
        """
        return cls(ProcessTransport(command, env, cwd, stderr), **options)

    @classmethod
    def connect(
        cls,
        socket_path: Optional[Union[str, "os.PathLike[str]"]] = None,
        *,
        start: bool = False,
        start_command: Optional[Sequence[str]] = None,
        env: Optional[Mapping[str, str]] = None,
        **options: Any,
    ) -> "Client":
        """Connect to the daemon's Unix socket (``agentd serve --socket [PATH]``; default: its default path).

        With ``start=True``, when nothing listens there the shared daemon is started first, as
        ``agentd acp`` does (``agentd serve --socket PATH --on-demand``, or ``start_command``,
        with ``env``): it outlives this client and exits by itself once idle. Without it, a
        missing daemon raises ``ConnectionError``.
        """
        path = socket_path or default_socket_path(env)
        if not start:
            return cls(SocketTransport.connect_unix(path), **options)
        return cls(connect_starting(lambda: SocketTransport.connect_unix(path), path, start_command, env), **options)

    # -- sessions -------------------------------------------------------------------------

    def new_session(self, cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> str:
        """Create a session working in ``cwd``; returns its id."""
        return self.request("session/new", p.new_session_params(cwd, mcp_servers))["sessionId"]

    def load_session(self, session_id: str, cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
        """Open a stored session; its history arrives as updates (see :meth:`updates`) before this returns."""
        return self.request("session/load", p.load_session_params(session_id, cwd, mcp_servers))

    def list_sessions(self, cwd: Optional[str] = None) -> List[Dict[str, Any]]:
        """Stored sessions, newest first (every page), optionally of one working directory."""
        sessions: List[Dict[str, Any]] = []
        cursor: Optional[str] = None
        while True:
            query: Dict[str, Any] = {"cwd": os.path.abspath(cwd)} if cwd else {}
            if cursor:
                query["cursor"] = cursor
            page = self.request("session/list", query)
            sessions.extend(page.get("sessions", []))
            cursor = page.get("nextCursor")
            if not cursor:
                return sessions

    def close_session(self, session_id: str) -> None:
        """Cancel any running turn and free the session; its history stays stored."""
        self.request("session/close", p.session_params(session_id))

    def set_mode(self, session_id: str, mode_id: str) -> None:
        """Switch the session's agent (``build``, ``plan``, ``explore``, ...)."""
        self.request("session/set_mode", {"sessionId": session_id, "modeId": mode_id})

    def set_config_option(self, session_id: str, config_id: str, value: Union[str, bool]) -> List[Dict[str, Any]]:
        """Change a setting such as ``model``; returns every option with its new value."""
        request: Dict[str, Any] = {"sessionId": session_id, "configId": config_id, "value": value}
        if isinstance(value, bool):
            request["type"] = "boolean"
        return self.request("session/set_config_option", request)["configOptions"]

    # -- turns ----------------------------------------------------------------------------

    def prompt(self, session_id: str, prompt: p.PromptInput, *, delivery: Optional[str] = None, timeout: Optional[float] = None) -> PromptResult:
        """Run a turn and wait for it: returns the stop reason and the text of the reply.

        ``delivery`` (``"steer"`` or ``"followUp"``) joins a running turn instead of failing
        with SessionBusy. After ``timeout`` seconds TimeoutError is raised and the turn goes
        on in the daemon (``abort`` it if it should not).
        """
        return self.start_prompt(session_id, prompt, delivery=delivery).result(timeout)

    def start_prompt(self, session_id: str, prompt: p.PromptInput, *, delivery: Optional[str] = None) -> Turn:
        """Send a prompt and return at once; the Turn streams its updates and gives its result."""
        return Turn(self._connection, session_id, prompt, delivery)

    def steer(self, session_id: str, prompt: p.PromptInput, *, interrupt: bool = False) -> int:
        """Deliver a message into the running turn at the next safe point (at once with ``interrupt``); returns the queue length."""
        return self.request("session/steer", p.steer_params(session_id, prompt, interrupt))["queued"]

    def follow_up(self, session_id: str, prompt: p.PromptInput) -> int:
        """Queue a message for when the agent would otherwise stop; returns the queue length."""
        return self.request("session/followUp", p.follow_up_params(session_id, prompt))["queued"]

    def abort(self, session_id: str, *, keep_queues: bool = False) -> None:
        """Stop the running turn now; returns once model stream, tools and requests have stopped."""
        self.request("session/abort", p.abort_params(session_id, keep_queues))

    def cancel(self, session_id: str) -> None:
        """ACP ``session/cancel``: the running turn ends with ``cancelled`` (does not wait)."""
        self._connection.notify("session/cancel", p.session_params(session_id))

    # -- tools and permissions --------------------------------------------------------------

    def register_tool(
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
        """Offer a tool the model can call; ``fn(arguments)`` runs here, on its own thread, for each call.

        Its return value is the result (see :func:`agentd.tools.tool_result`); an exception
        is reported to the model as a failed call. ``access`` drives permission rules (the
        daemon's default, ``execute``, asks first). Returns the daemon's ``registered`` list (this call's names).
        """
        tool = Tool(name, description, schema, fn, kind, access, session_id, timeout_ms)
        self._tools[name] = tool
        return registered_names(self.request("tools/register", {"tools": [tool.definition()]}))

    def unregister_tool(self, name: str) -> bool:
        """Remove a tool this client registered; False if it had none by that name."""
        self._tools.pop(name, None)
        return name in self.request("tools/unregister", {"names": [name]}).get("unregistered", [])

    def list_tools(self, session_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """The tools the model can call (built-in, client and MCP), sorted by name."""
        return self.request("tools/list", {"sessionId": session_id} if session_id else {})["tools"]

    def on_permission(self, handler: Optional[PermissionHandler]) -> None:
        """Decide ``session/request_permission`` with ``handler(request) -> optionId | None``; None restores reject-all."""
        self._permission_handler = handler or reject

    # -- notifications ------------------------------------------------------------------------

    def updates(self, session_id: Optional[str] = None) -> Subscription:
        """An iterator of ``session/update`` params (of one session, or all); close it when done."""
        return Subscription(self._connection, session_filter(SESSION_UPDATE, session_id))

    def events(self, session_id: Optional[str] = None) -> Subscription:
        """An iterator of ``agentd/event`` params; needs ``events=True`` at connect."""
        return Subscription(self._connection, session_filter(EVENT, session_id))

    def on_update(self, callback: Callable[[Dict[str, Any]], None], session_id: Optional[str] = None) -> Callable[[], None]:
        """Call ``callback(params)`` for each ``session/update``; returns an unsubscribe.

        The callback runs on the reader thread: keep it short, and use ``start_prompt``
        rather than blocking calls from it.
        """
        accept = session_filter(SESSION_UPDATE, session_id)
        return self._connection.add_listener(lambda method, params: callback(params) if accept(method, params) else None)

    # -- raw access and lifecycle -------------------------------------------------------------

    def request(self, method: str, params: Any = None, *, timeout: Optional[float] = None) -> Any:
        """Send any request and wait for its result; an error answer raises AgentdError."""
        return wait_result(self._connection.request_future(method, params), timeout, method, self._connection)

    def notify(self, method: str, params: Any = None) -> None:
        """Send any notification."""
        self._connection.notify(method, params)

    @property
    def connection(self) -> Connection:
        """The JSON-RPC connection underneath (futures, raw handlers, ``$/cancel_request``)."""
        return self._connection

    @property
    def process(self) -> Optional["subprocess.Popen[bytes]"]:
        """The daemon process this client spawned (None for a socket connection)."""
        return getattr(self._connection.transport, "process", None)

    @property
    def closed(self) -> bool:
        """True once the connection has ended."""
        return self._connection.closed

    def close(self) -> None:
        """Close the connection (and end a spawned daemon); pending calls fail with ConnectionClosedError."""
        self._connection.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    # -- daemon requests ----------------------------------------------------------------------

    def _answer_permission(self, params: Any) -> Dict[str, Any]:
        request = PermissionRequest.from_params(params)
        try:
            return permission_response(request, self._permission_handler(request))
        except Exception as error:  # noqa: BLE001 - a failing handler rejects
            return failed_handler_response(request, error)

    def _answer_tool_call(self, params: Any) -> Dict[str, Any]:
        tool = find_tool(self._tools, params)
        try:
            return tool_result(tool.fn(tool_arguments(params)))
        except Exception as error:  # noqa: BLE001 - the model is told the tool failed
            return tool_failure(tool.name, error)
