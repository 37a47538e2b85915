"""Calls a running greeter through the client that openapi-python-client
generates from greeter's /v3/api-docs (TestGeneratedClients in
conformance/clients_test.go generates it as the package greeter_client
beside this file): the greeting, then a message created, listed, fetched
back and searched for. Exits 1 with what was wrong.

Usage: python main.py http://127.0.0.1:PORT
"""

import sys
import time
import uuid

from greeter_client import Client
from greeter_client.api.greetings import get_api_hello
from greeter_client.api.messages import (
    get_api_messages,
    get_api_messages_by_index,
    get_api_messages_search,
    post_api_messages,
)
from greeter_client.models import Message, MessageBody


def run(base_url: str) -> None:
    # An undocumented status raises instead of parsing as None.
    client = Client(base_url=base_url, raise_on_unexpected_status=True)

    # hello
    hello = get_api_hello.sync_detailed(client=client)
    if not isinstance(hello.parsed, Message) or hello.parsed.text != "Hello World!":
        raise AssertionError(f"hello: {hello.status_code} {hello.content!r}, want text 'Hello World!'")

    # create
    text = f"from the Python client {time.time_ns()}"
    created = post_api_messages.sync_detailed(client=client, body=MessageBody(text=text))
    if created.status_code != 201:
        raise AssertionError(f"create: {created.status_code} {created.content!r}, want 201")

    # list: the message is in it
    listed = get_api_messages.sync_detailed(client=client)
    if not isinstance(listed.parsed, list):
        raise AssertionError(f"list: {listed.status_code} {listed.content!r}, want 200 with a list")
    texts = [m.text for m in listed.parsed]
    if text not in texts:
        raise AssertionError(f"list: {text!r} is not in {texts!r}")
    index = texts.index(text)

    # get: the message at its index
    got = get_api_messages_by_index.sync_detailed(index, client=client)
    if not isinstance(got.parsed, Message) or got.parsed.text != text:
        raise AssertionError(f"get {index}: {got.status_code} {got.content!r}, want text {text!r}")

    # search: greeter checks its parameters and answers an empty 200
    search = get_api_messages_search.sync_detailed(
        client=client, param1=index, param2=uuid.UUID("6e06b699-2490-4ad2-8000-000000000000")
    )
    if search.status_code != 200 or search.content:
        raise AssertionError(f"search: {search.status_code} {search.content!r}, want 200 with no body")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: main.py BASE_URL")
    try:
        run(sys.argv[1])
    except AssertionError as e:
        sys.exit(f"FAIL: {e}")
    print("ok")
