"""Texts shown to people and models.  They name entity types, never values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from redactor.config import ENTITY_LABELS, Settings

__all__ = ["entity_names", "finding_type", "prompt_blocked", "prompt_blockers", "text"]

_TEXTS: Final[dict[str, dict[str, str]]] = {
    "pt-BR": {
        "prompt_blocked": (
            "Mensagem bloqueada pelo redactor: ela contém dados pessoais ({entities}). "
            "Reenvie uma descrição sem esses dados (por exemplo, troque o número por [CPF]) "
            "ou use o canal apropriado para tratar dados de clientes."
        ),
        "prompt_secret": (
            "Mensagem bloqueada pelo redactor: ela contém uma credencial ({entities}). "
            "Não cole chaves privadas, senhas ou tokens na conversa: eles seriam enviados ao "
            "provedor do modelo. Descreva o problema sem o valor (por exemplo, [SECRET])."
        ),
        "token_denied": (
            "O redactor recusou esta chamada: tokens como [CPF:…] só voltam a ser valores "
            "onde a política permite ({reason})."
        ),
        "rewritten": (
            "O redactor substituiu dados pessoais ({entities}) nesta chamada por marcadores "
            "entre colchetes, como [CPF]; os marcadores não são os valores reais."
        ),
        "failure_output": (
            "Aviso do redactor: a saída de erro desta ferramenta continha dados pessoais "
            "({entities}) que não puderam ser removidos antes de chegar aqui. Não repita "
            "esses valores; ative hooks.wrap_bash para filtrar também comandos que falham."
        ),
        "output_redacted": (
            "[redactor: a ferramenta executou normalmente; dados pessoais ({entities}) da "
            "saída abaixo foram trocados por marcadores entre colchetes, como [CPF], que não "
            "são os valores reais. Não é preciso repetir a chamada.]"
        ),
        "retry_without_data": (
            "redactor: chamada recusada: os argumentos contêm dados pessoais ({entities}), e "
            "reescrevê-los aqui dispensaria a aprovação que este agente pediria. Refaça a "
            "chamada sem esses valores (use marcadores como [CPF] ou leia-os de um arquivo)."
        ),
        "withheld_output": (
            "[redactor: a saída desta ferramenta foi retida: erro interno ao remover dados "
            "pessoais ({error}). Detalhes no log local do redactor.]"
        ),
        "withheld": "[saída retida pelo redactor: erro ao remover dados pessoais]",
        "gateway_binary": (
            "[imagem ou PDF retido pelo redactor: o gateway não lê conteúdo binário e não o "
            "envia ao modelo (gateway.binary = \"block\"). Descreva o que ele mostra.]"
        ),
        "gateway_failed": (
            "redactor gateway: requisição retida, nada foi enviado ao modelo: falha interna "
            "ao remover dados pessoais ({error}). Detalhes no log local do redactor."
        ),
        "gateway_prompt": (
            "redactor: esta mensagem contém dados pessoais ({entities}); o gateway local do "
            "redactor os troca por marcadores como [CPF] antes de enviá-la ao modelo."
        ),
        "gateway_down": (
            "redactor: o gateway local não está respondendo, e sem ele o modelo não é "
            "alcançado. Inicie-o com `redactor gateway start` e reenvie a mensagem."
        ),
        "fail_tool": (
            "redactor: chamada bloqueada por segurança: falha interna ao verificar dados "
            "pessoais ({error}). Detalhes no log local do redactor."
        ),
        "fail_prompt": (
            "redactor: mensagem bloqueada por segurança: falha interna ao verificar dados "
            "pessoais ({error}). Detalhes no log local do redactor."
        ),
        "fail_unreadable": (
            "redactor: turno interrompido por segurança: um evento de hook ilegível não pôde "
            "ser verificado quanto a dados pessoais ({error}). Detalhes no log local do "
            "redactor."
        ),
        "sealed_session": (
            "redactor: esta sessão foi selada: uma saída de ferramenta que o redactor não "
            "conseguiu verificar ficou no histórico e seria enviada ao modelo com esta "
            "mensagem. Inicie uma nova sessão (sem --resume/--continue)."
        ),
        "shape_blocked": (
            "redactor: chamada bloqueada: os argumentos contêm dados pessoais que este host "
            "não permite reescrever aqui. Refaça a chamada sem esses dados."
        ),
    },
    "en": {
        "prompt_blocked": (
            "Message blocked by redactor: it contains personal data ({entities}). Send a "
            "description without that data (for example, replace the number with [CPF]) or "
            "use the proper channel for customer data."
        ),
        "prompt_secret": (
            "Message blocked by redactor: it contains a credential ({entities}). Do not paste "
            "private keys, passwords or tokens into the conversation: they would be sent to "
            "the model provider. Describe the problem without the value (for example, "
            "[SECRET])."
        ),
        "token_denied": (
            "redactor refused this call: tokens such as [CPF:…] turn back into values only "
            "where the policy allows ({reason})."
        ),
        "rewritten": (
            "redactor replaced personal data ({entities}) in this call with bracketed "
            "placeholders such as [CPF]; the placeholders are not the real values."
        ),
        "failure_output": (
            "redactor warning: this tool's error output held personal data ({entities}) that "
            "could not be removed before it reached you. Do not repeat those values; enable "
            "hooks.wrap_bash to filter failing commands too."
        ),
        "output_redacted": (
            "[redactor: the tool ran normally; personal data ({entities}) in the output below "
            "was replaced with bracketed placeholders such as [CPF], which are not the real "
            "values. There is no need to run the call again.]"
        ),
        "retry_without_data": (
            "redactor: call refused: its arguments hold personal data ({entities}), and "
            "rewriting them here would skip the approval this agent would ask for. Make the "
            "call again without those values (use placeholders such as [CPF], or read them "
            "from a file)."
        ),
        "withheld_output": (
            "[redactor: this tool's output was withheld: internal error while removing "
            "personal data ({error}). Details in redactor's local log.]"
        ),
        "withheld": "[output withheld by redactor: personal data could not be removed]",
        "gateway_binary": (
            "[image or PDF withheld by redactor: the gateway cannot read binary content and "
            "does not send it to the model (gateway.binary = \"block\"). Describe what it "
            "shows.]"
        ),
        "gateway_failed": (
            "redactor gateway: request withheld, nothing was sent to the model: internal error "
            "while removing personal data ({error}). Details in redactor's local log."
        ),
        "gateway_prompt": (
            "redactor: this message holds personal data ({entities}); redactor's local "
            "gateway replaces it with placeholders such as [CPF] before the model sees it."
        ),
        "gateway_down": (
            "redactor: the local gateway is not answering, and without it the model cannot be "
            "reached. Start it with `redactor gateway start` and send the message again."
        ),
        "fail_tool": (
            "redactor: call blocked for safety: internal error while checking for personal "
            "data ({error}). Details in redactor's local log."
        ),
        "fail_prompt": (
            "redactor: message blocked for safety: internal error while checking for personal "
            "data ({error}). Details in redactor's local log."
        ),
        "fail_unreadable": (
            "redactor: turn stopped for safety: a hook event that could not be read could not "
            "be checked for personal data ({error}). Details in redactor's local log."
        ),
        "sealed_session": (
            "redactor: this session is sealed: a tool output redactor could not check stayed "
            "in its history and would be sent to the model with this message. Start a new "
            "session (without --resume/--continue)."
        ),
        "shape_blocked": (
            "redactor: call blocked: the arguments hold personal data that this host cannot "
            "rewrite here. Make the call again without that data."
        ),
    },
}


def _label(entity: str) -> str:
    name, _, kind = entity.partition(":")
    label = ENTITY_LABELS.get(name, name)
    return f"{label} ({kind})" if kind else label


def entity_names(entities: Iterable[str]) -> str:
    """``BR_CPF, BR_CPF, USERNAME`` -> ``CPF, USERNAME`` (sorted, unique labels);
    ``SECRET:private_key`` -> ``SECRET (private_key)``."""
    return ", ".join(sorted({_label(e) for e in entities}))


def finding_type(entity: str, recognizer: str) -> str:
    """What a prompt check sees of a finding: its entity, and for a secret its kind
    (``SECRET:private_key``, from the recognizer name ``SecretRecognizer:private_key``)."""
    if entity == "SECRET":
        kind = recognizer.partition(":")[2]
        if kind:
            return f"SECRET:{kind}"
    return entity


def prompt_blockers(types: Iterable[str], settings: Settings) -> list[str]:
    """The finding types (see :func:`finding_type`) that make a prompt bounce: entities of
    ``prompt_block_entities`` (``SECRET`` there blocks every kind) and secrets of a kind in
    ``prompt_block_secrets``."""
    blocking = []
    for found in types:
        entity, _, kind = found.partition(":")
        if entity in settings.prompt_block_entities or (
                entity == "SECRET" and kind in settings.prompt_block_secrets):
            blocking.append(found)
    return blocking


def text(key: str, language: str = "pt-BR", **fields: str) -> str:
    """A message in the configured language, with its fields filled in."""
    table = _TEXTS.get(language, _TEXTS["pt-BR"])
    return table[key].format(**fields)


def prompt_blocked(settings: Settings, entities: Iterable[str]) -> str:
    """The prompt-block message, the configured one if there is one."""
    listed = list(entities)
    names = entity_names(listed)
    if settings.prompt_blocked_message:
        return settings.prompt_blocked_message.replace("{entities}", names)
    only_secrets = bool(listed) and all(e.startswith("SECRET") for e in listed)
    return text("prompt_secret" if only_secrets else "prompt_blocked", settings.language,
                entities=names)
