"""Schema validators generated from ``schemas/*.schema.json`` by ``python -m agent_graph._toolchain.schemagen``.

Do not edit: change a schema, then regenerate (``--check`` reports a stale module).
"""

GENERATED_WITH = 'fastjsonschema 2.22.3'
SCHEMAS_DIGEST = 'sha256:d1846d530b0194a2fc4b0d2eb6559627da65224c71313ca76a03bed5ea4b1194'

from decimal import Decimal
import re

from .schema_failure import JsonSchemaValueException

JsonSchemaValuesException = JsonSchemaValueException
NoneType = type(None)

REGEX_PATTERNS = {
    '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?$': re.compile('^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?\\Z'),
    '^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))': re.compile('^(?!/|[A-Za-z]:|[^\\n\\r\\u2028\\u2029]*(?:^|/)\\.\\.(?:/|\\Z))'),
    '^(?:path:|provider:).+': re.compile('^(?:path:|provider:)[^\\n\\r\\u2028\\u2029]+'),
    '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$': re.compile('^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z\\Z'),
    '^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$': re.compile('^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])\\Z'),
    '^[A-Za-z0-9_.-]+$': re.compile('^[A-Za-z0-9_.-]+\\Z'),
    '^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$': re.compile('^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?\\Z'),
    '^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$': re.compile('^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+\\Z'),
    '^route:[a-f0-9]{20}$': re.compile('^route:[a-f0-9]{20}\\Z'),
    '^route\\.': re.compile('^route\\.'),
    '^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$': re.compile('^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?\\Z'),
    '^sha256:[a-f0-9]{64}$': re.compile('^sha256:[a-f0-9]{64}\\Z'),
}


# ---------------------------------------------------------------------- action.schema.json

def validate_action(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['runner']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "runner" in data_keys:
                data_keys.remove("runner")
                data__runner = data["runner"]
                if not (isinstance(data__runner, str) and data__runner == 'command'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be same as const definition: command", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['command']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "runtime" in data_keys:
                data_keys.remove("runtime")
                data__runtime = data["runtime"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runtime must NOT match a disallowed definition", value=data__runtime, name="" + (name_prefix or "data") + ".runtime", definition=None, rule='not')
            if "handler" in data_keys:
                data_keys.remove("handler")
                data__handler = data["handler"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must NOT match a disallowed definition", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='not')
            if "skill" in data_keys:
                data_keys.remove("skill")
                data__skill = data["skill"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".skill must NOT match a disallowed definition", value=data__skill, name="" + (name_prefix or "data") + ".skill", definition=None, rule='not')
            if "args" in data_keys:
                data_keys.remove("args")
                data__args = data["args"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".args must NOT match a disallowed definition", value=data__args, name="" + (name_prefix or "data") + ".args", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['runner']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "runner" in data_keys:
                data_keys.remove("runner")
                data__runner = data["runner"]
                if not (isinstance(data__runner, str) and data__runner == 'script'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be same as const definition: script", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['entry', 'runtime']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "command" in data_keys:
                data_keys.remove("command")
                data__command = data["command"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must NOT match a disallowed definition", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='not')
            if "handler" in data_keys:
                data_keys.remove("handler")
                data__handler = data["handler"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must NOT match a disallowed definition", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='not')
            if "skill" in data_keys:
                data_keys.remove("skill")
                data__skill = data["skill"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".skill must NOT match a disallowed definition", value=data__skill, name="" + (name_prefix or "data") + ".skill", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['runner']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "runner" in data_keys:
                data_keys.remove("runner")
                data__runner = data["runner"]
                if not (isinstance(data__runner, str) and data__runner == 'agent'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be same as const definition: agent", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['skill']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "command" in data_keys:
                data_keys.remove("command")
                data__command = data["command"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must NOT match a disallowed definition", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='not')
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "runtime" in data_keys:
                data_keys.remove("runtime")
                data__runtime = data["runtime"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runtime must NOT match a disallowed definition", value=data__runtime, name="" + (name_prefix or "data") + ".runtime", definition=None, rule='not')
            if "handler" in data_keys:
                data_keys.remove("handler")
                data__handler = data["handler"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must NOT match a disallowed definition", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='not')
            if "args" in data_keys:
                data_keys.remove("args")
                data__args = data["args"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".args must NOT match a disallowed definition", value=data__args, name="" + (name_prefix or "data") + ".args", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['runner']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "runner" in data_keys:
                data_keys.remove("runner")
                data__runner = data["runner"]
                if not (isinstance(data__runner, str) and data__runner == 'host'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be same as const definition: host", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['handler']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "command" in data_keys:
                data_keys.remove("command")
                data__command = data["command"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must NOT match a disallowed definition", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='not')
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "runtime" in data_keys:
                data_keys.remove("runtime")
                data__runtime = data["runtime"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runtime must NOT match a disallowed definition", value=data__runtime, name="" + (name_prefix or "data") + ".runtime", definition=None, rule='not')
            if "skill" in data_keys:
                data_keys.remove("skill")
                data__skill = data["skill"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".skill must NOT match a disallowed definition", value=data__skill, name="" + (name_prefix or "data") + ".skill", definition=None, rule='not')
            if "args" in data_keys:
                data_keys.remove("args")
                data__args = data["args"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".args must NOT match a disallowed definition", value=data__args, name="" + (name_prefix or "data") + ".args", definition=None, rule='not')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'runner', 'effect']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _action__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if "runner" in data_keys:
            data_keys.remove("runner")
            data__runner = data["runner"]
            if not (isinstance(data__runner, str) and data__runner == 'command' or isinstance(data__runner, str) and data__runner == 'script' or isinstance(data__runner, str) and data__runner == 'agent' or isinstance(data__runner, str) and data__runner == 'host'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be one of ['command', 'script', 'agent', 'host']", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='enum')
        if "effect" in data_keys:
            data_keys.remove("effect")
            data__effect = data["effect"]
            if not (isinstance(data__effect, str) and data__effect == 'read' or isinstance(data__effect, str) and data__effect == 'write' or isinstance(data__effect, str) and data__effect == 'external'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".effect must be one of ['read', 'write', 'external']", value=data__effect, name="" + (name_prefix or "data") + ".effect", definition=None, rule='enum')
        if "command" in data_keys:
            data_keys.remove("command")
            data__command = data["command"]
            if not isinstance(data__command, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must be string", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='type')
            if isinstance(data__command, str):
                data__command_len = len(data__command)
                if data__command_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must be longer than or equal to 1 characters", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            _action__definitions_relativepath(data__entry, custom_formats, (name_prefix or "data") + ".entry")
        if "runtime" in data_keys:
            data_keys.remove("runtime")
            data__runtime = data["runtime"]
            if not (isinstance(data__runtime, str) and data__runtime == 'node' or isinstance(data__runtime, str) and data__runtime == 'bun' or isinstance(data__runtime, str) and data__runtime == 'python' or isinstance(data__runtime, str) and data__runtime == 'shell'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runtime must be one of ['node', 'bun', 'python', 'shell']", value=data__runtime, name="" + (name_prefix or "data") + ".runtime", definition=None, rule='enum')
        if "handler" in data_keys:
            data_keys.remove("handler")
            data__handler = data["handler"]
            _action__definitions_identifier(data__handler, custom_formats, (name_prefix or "data") + ".handler")
        if "skill" in data_keys:
            data_keys.remove("skill")
            data__skill = data["skill"]
            _action__definitions_relativepath(data__skill, custom_formats, (name_prefix or "data") + ".skill")
        if "args" in data_keys:
            data_keys.remove("args")
            data__args = data["args"]
            if not isinstance(data__args, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".args must be array", value=data__args, name="" + (name_prefix or "data") + ".args", definition=None, rule='type')
            data__args_is_list = isinstance(data__args, (list, tuple))
            if data__args_is_list:
                data__args_len = len(data__args)
                for data__args_x, data__args_item in enumerate(data__args):
                    if not isinstance(data__args_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".args[{data__args_x}]" + " must be string", value=data__args_item, name="" + (name_prefix or "data") + f".args[{data__args_x}]" + "", definition=None, rule='type')
        if "files" in data_keys:
            data_keys.remove("files")
            data__files = data["files"]
            if not isinstance(data__files, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".files must be array", value=data__files, name="" + (name_prefix or "data") + ".files", definition=None, rule='type')
            data__files_is_list = isinstance(data__files, (list, tuple))
            if data__files_is_list:
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                data__files_len = len(data__files)
                if data__files_len > len(set(fn(data__files_x) for data__files_x in data__files)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".files must contain unique items", value=data__files, name="" + (name_prefix or "data") + ".files", definition=None, rule='uniqueItems')
                for data__files_x, data__files_item in enumerate(data__files):
                    _action__definitions_relativepath(data__files_item, custom_formats, (name_prefix or "data") + f".files[{data__files_x}]")
        if "cwd" in data_keys:
            data_keys.remove("cwd")
            data__cwd = data["cwd"]
            if not (isinstance(data__cwd, str) and data__cwd == 'workspace' or isinstance(data__cwd, str) and data__cwd == 'provider'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cwd must be one of ['workspace', 'provider']", value=data__cwd, name="" + (name_prefix or "data") + ".cwd", definition=None, rule='enum')
        if "inputSchema" in data_keys:
            data_keys.remove("inputSchema")
            data__inputSchema = data["inputSchema"]
            _action__definitions_relativepath(data__inputSchema, custom_formats, (name_prefix or "data") + ".inputSchema")
        if "outputSchema" in data_keys:
            data_keys.remove("outputSchema")
            data__outputSchema = data["outputSchema"]
            _action__definitions_relativepath(data__outputSchema, custom_formats, (name_prefix or "data") + ".outputSchema")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _action__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _action__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- bundle.schema.json

def validate_bundle(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'providerManifest', 'graphs', 'actions', 'resources', 'schemas', 'files', 'graphDependencies', 'digest']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.bundle.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.bundle.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be object", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            data__provider_is_dict = isinstance(data__provider, dict)
            if data__provider_is_dict:
                data__provider__missing_keys = set(['id', 'version']) - data__provider.keys()
                if data__provider__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must contain " + (str(sorted(data__provider__missing_keys)) + " properties"), value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='required')
                data__provider_keys = set(data__provider.keys())
                if "id" in data__provider_keys:
                    data__provider_keys.remove("id")
                    data__provider__id = data__provider["id"]
                    if not isinstance(data__provider__id, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.id must be string", value=data__provider__id, name="" + (name_prefix or "data") + ".provider.id", definition=None, rule='type')
                    if isinstance(data__provider__id, str):
                        data__provider__id_len = len(data__provider__id)
                        if data__provider__id_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.id must be longer than or equal to 1 characters", value=data__provider__id, name="" + (name_prefix or "data") + ".provider.id", definition=None, rule='minLength')
                if "version" in data__provider_keys:
                    data__provider_keys.remove("version")
                    data__provider__version = data__provider["version"]
                    if not isinstance(data__provider__version, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.version must be string", value=data__provider__version, name="" + (name_prefix or "data") + ".provider.version", definition=None, rule='type')
                    if isinstance(data__provider__version, str):
                        data__provider__version_len = len(data__provider__version)
                        if data__provider__version_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.version must be longer than or equal to 1 characters", value=data__provider__version, name="" + (name_prefix or "data") + ".provider.version", definition=None, rule='minLength')
                if data__provider_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must not contain "+str(data__provider_keys)+" properties", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='additionalProperties')
        if "providerManifest" in data_keys:
            data_keys.remove("providerManifest")
            data__providerManifest = data["providerManifest"]
            _bundle__definitions_relativepath(data__providerManifest, custom_formats, (name_prefix or "data") + ".providerManifest")
        if "graphs" in data_keys:
            data_keys.remove("graphs")
            data__graphs = data["graphs"]
            if not isinstance(data__graphs, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphs must be array", value=data__graphs, name="" + (name_prefix or "data") + ".graphs", definition=None, rule='type')
            data__graphs_is_list = isinstance(data__graphs, (list, tuple))
            if data__graphs_is_list:
                data__graphs_len = len(data__graphs)
                for data__graphs_x, data__graphs_item in enumerate(data__graphs):
                    _bundle__definitions_catalogentry(data__graphs_item, custom_formats, (name_prefix or "data") + f".graphs[{data__graphs_x}]")
        if "actions" in data_keys:
            data_keys.remove("actions")
            data__actions = data["actions"]
            if not isinstance(data__actions, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".actions must be array", value=data__actions, name="" + (name_prefix or "data") + ".actions", definition=None, rule='type')
            data__actions_is_list = isinstance(data__actions, (list, tuple))
            if data__actions_is_list:
                data__actions_len = len(data__actions)
                for data__actions_x, data__actions_item in enumerate(data__actions):
                    _bundle__definitions_catalogentry(data__actions_item, custom_formats, (name_prefix or "data") + f".actions[{data__actions_x}]")
        if "resources" in data_keys:
            data_keys.remove("resources")
            data__resources = data["resources"]
            if not isinstance(data__resources, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must be array", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='type')
            data__resources_is_list = isinstance(data__resources, (list, tuple))
            if data__resources_is_list:
                data__resources_len = len(data__resources)
                for data__resources_x, data__resources_item in enumerate(data__resources):
                    _bundle__definitions_catalogentry(data__resources_item, custom_formats, (name_prefix or "data") + f".resources[{data__resources_x}]")
        if "schemas" in data_keys:
            data_keys.remove("schemas")
            data__schemas = data["schemas"]
            if not isinstance(data__schemas, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schemas must be array", value=data__schemas, name="" + (name_prefix or "data") + ".schemas", definition=None, rule='type')
            data__schemas_is_list = isinstance(data__schemas, (list, tuple))
            if data__schemas_is_list:
                data__schemas_len = len(data__schemas)
                for data__schemas_x, data__schemas_item in enumerate(data__schemas):
                    _bundle__definitions_catalogentry(data__schemas_item, custom_formats, (name_prefix or "data") + f".schemas[{data__schemas_x}]")
        if "files" in data_keys:
            data_keys.remove("files")
            data__files = data["files"]
            if not isinstance(data__files, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".files must be array", value=data__files, name="" + (name_prefix or "data") + ".files", definition=None, rule='type')
            data__files_is_list = isinstance(data__files, (list, tuple))
            if data__files_is_list:
                data__files_len = len(data__files)
                for data__files_x, data__files_item in enumerate(data__files):
                    _bundle__definitions_fileentry(data__files_item, custom_formats, (name_prefix or "data") + f".files[{data__files_x}]")
        if "graphDependencies" in data_keys:
            data_keys.remove("graphDependencies")
            data__graphDependencies = data["graphDependencies"]
            if not isinstance(data__graphDependencies, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphDependencies must be object", value=data__graphDependencies, name="" + (name_prefix or "data") + ".graphDependencies", definition=None, rule='type')
            data__graphDependencies_is_dict = isinstance(data__graphDependencies, dict)
            if data__graphDependencies_is_dict:
                data__graphDependencies_keys = set(data__graphDependencies.keys())
                for data__graphDependencies_key in data__graphDependencies_keys:
                    if data__graphDependencies_key not in []:
                        data__graphDependencies_value = data__graphDependencies.get(data__graphDependencies_key)
                        if not isinstance(data__graphDependencies_value, (list, tuple)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}" + " must be array", value=data__graphDependencies_value, name="" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}" + "", definition=None, rule='type')
                        data__graphDependencies_value_is_list = isinstance(data__graphDependencies_value, (list, tuple))
                        if data__graphDependencies_value_is_list:
                            def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                            data__graphDependencies_value_len = len(data__graphDependencies_value)
                            if data__graphDependencies_value_len > len(set(fn(data__graphDependencies_value_x) for data__graphDependencies_value_x in data__graphDependencies_value)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}" + " must contain unique items", value=data__graphDependencies_value, name="" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}" + "", definition=None, rule='uniqueItems')
                            for data__graphDependencies_value_x, data__graphDependencies_value_item in enumerate(data__graphDependencies_value):
                                if not isinstance(data__graphDependencies_value_item, (str)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}[{data__graphDependencies_value_x}]" + " must be string", value=data__graphDependencies_value_item, name="" + (name_prefix or "data") + f".graphDependencies.{data__graphDependencies_key}[{data__graphDependencies_value_x}]" + "", definition=None, rule='type')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _bundle__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _bundle__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _bundle__definitions_fileentry(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['path', 'digest']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            _bundle__definitions_relativepath(data__path, custom_formats, (name_prefix or "data") + ".path")
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _bundle__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _bundle__definitions_catalogentry(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'path', 'digest']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            _bundle__definitions_relativepath(data__path, custom_formats, (name_prefix or "data") + ".path")
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _bundle__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _bundle__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- code-catalog.schema.json

def validate_code_catalog(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'codes']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.code-catalog.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.code-catalog.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "codes" in data_keys:
            data_keys.remove("codes")
            data__codes = data["codes"]
            if not isinstance(data__codes, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".codes must be array", value=data__codes, name="" + (name_prefix or "data") + ".codes", definition=None, rule='type')
            data__codes_is_list = isinstance(data__codes, (list, tuple))
            if data__codes_is_list:
                data__codes_len = len(data__codes)
                for data__codes_x, data__codes_item in enumerate(data__codes):
                    _code_catalog__definitions_code(data__codes_item, custom_formats, (name_prefix or "data") + f".codes[{data__codes_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _code_catalog__definitions_code(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'route-reason'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: route-reason", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        try:
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['severity']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
        else:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must NOT match a disallowed definition", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='not')
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data_keys = set(data.keys())
            if "code" in data_keys:
                data_keys.remove("code")
                data__code = data["code"]
                if not isinstance(data__code, (str)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
                if isinstance(data__code, str):
                    if not REGEX_PATTERNS['^route\\.'].search(data__code):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must match pattern ^route\\.", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='pattern')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'kind', 'summary']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            _code_catalog__definitions_identifier(data__code, custom_formats, (name_prefix or "data") + ".code")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'route-reason' or isinstance(data__kind, str) and data__kind == 'diagnostic'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['route-reason', 'diagnostic']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "summary" in data_keys:
            data_keys.remove("summary")
            data__summary = data["summary"]
            if not isinstance(data__summary, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be string", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='type')
            if isinstance(data__summary, str):
                data__summary_len = len(data__summary)
                if data__summary_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be longer than or equal to 1 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='minLength')
                if data__summary_len > 160:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be shorter than or equal to 160 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='maxLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _code_catalog__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "document" in data_keys:
            data_keys.remove("document")
            data__document = data["document"]
            _code_catalog__definitions_relativepath(data__document, custom_formats, (name_prefix or "data") + ".document")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _code_catalog__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _code_catalog__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _code_catalog__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- code-location.schema.json

def validate_code_location(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'code', 'kind', 'summary']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.code-location.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.code-location.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be string", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be longer than or equal to 1 characters", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='minLength')
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            if not isinstance(data__code, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
            if isinstance(data__code, str):
                data__code_len = len(data__code)
                if data__code_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be longer than or equal to 1 characters", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'route-reason' or isinstance(data__kind, str) and data__kind == 'diagnostic'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['route-reason', 'diagnostic']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "summary" in data_keys:
            data_keys.remove("summary")
            data__summary = data["summary"]
            if not isinstance(data__summary, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be string", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='type')
            if isinstance(data__summary, str):
                data__summary_len = len(data__summary)
                if data__summary_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be longer than or equal to 1 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='minLength')
                if data__summary_len > 160:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be shorter than or equal to 160 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='maxLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _code_location__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "document" in data_keys:
            data_keys.remove("document")
            data__document = data["document"]
            _code_location__definitions_filelocation(data__document, custom_formats, (name_prefix or "data") + ".document")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _code_location__definitions_filelocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'digest', 'filePath']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _code_location__definitions_statickind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _code_location__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _code_location__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _code_location__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _code_location__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _code_location__definitions_statickind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _code_location__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- error.schema.json

def validate_error(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'state', 'error']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.error.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.error.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "state" in data_keys:
            data_keys.remove("state")
            data__state = data["state"]
            if not (isinstance(data__state, str) and data__state == 'error'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".state must be same as const definition: error", value=data__state, name="" + (name_prefix or "data") + ".state", definition=None, rule='const')
        if "error" in data_keys:
            data_keys.remove("error")
            data__error = data["error"]
            if not isinstance(data__error, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".error must be object", value=data__error, name="" + (name_prefix or "data") + ".error", definition=None, rule='type')
            data__error_is_dict = isinstance(data__error, dict)
            if data__error_is_dict:
                data__error__missing_keys = set(['code', 'message', 'diagnostics']) - data__error.keys()
                if data__error__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".error must contain " + (str(sorted(data__error__missing_keys)) + " properties"), value=data__error, name="" + (name_prefix or "data") + ".error", definition=None, rule='required')
                data__error_keys = set(data__error.keys())
                if "code" in data__error_keys:
                    data__error_keys.remove("code")
                    data__error__code = data__error["code"]
                    if not isinstance(data__error__code, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".error.code must be string", value=data__error__code, name="" + (name_prefix or "data") + ".error.code", definition=None, rule='type')
                    if isinstance(data__error__code, str):
                        data__error__code_len = len(data__error__code)
                        if data__error__code_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".error.code must be longer than or equal to 1 characters", value=data__error__code, name="" + (name_prefix or "data") + ".error.code", definition=None, rule='minLength')
                if "message" in data__error_keys:
                    data__error_keys.remove("message")
                    data__error__message = data__error["message"]
                    if not isinstance(data__error__message, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".error.message must be string", value=data__error__message, name="" + (name_prefix or "data") + ".error.message", definition=None, rule='type')
                if "diagnostics" in data__error_keys:
                    data__error_keys.remove("diagnostics")
                    data__error__diagnostics = data__error["diagnostics"]
                    if not isinstance(data__error__diagnostics, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".error.diagnostics must be array", value=data__error__diagnostics, name="" + (name_prefix or "data") + ".error.diagnostics", definition=None, rule='type')
                    data__error__diagnostics_is_list = isinstance(data__error__diagnostics, (list, tuple))
                    if data__error__diagnostics_is_list:
                        data__error__diagnostics_len = len(data__error__diagnostics)
                        for data__error__diagnostics_x, data__error__diagnostics_item in enumerate(data__error__diagnostics):
                            _error__definitions_diagnostic(data__error__diagnostics_item, custom_formats, (name_prefix or "data") + f".error.diagnostics[{data__error__diagnostics_x}]")
                if data__error_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".error must not contain "+str(data__error_keys)+" properties", value=data__error, name="" + (name_prefix or "data") + ".error", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _error__definitions_diagnostic(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'severity', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            if not isinstance(data__code, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
            if isinstance(data__code, str):
                data__code_len = len(data__code)
                if data__code_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be longer than or equal to 1 characters", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='minLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _error__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not isinstance(data__message, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string", value=data__message, name="" + (name_prefix or "data") + ".message", definition=None, rule='type')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            if not isinstance(data__path, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be string", value=data__path, name="" + (name_prefix or "data") + ".path", definition=None, rule='type')
        if "documentRef" in data_keys:
            data_keys.remove("documentRef")
            data__documentRef = data["documentRef"]
            if not isinstance(data__documentRef, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be string", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='type')
            if isinstance(data__documentRef, str):
                data__documentRef_len = len(data__documentRef)
                if data__documentRef_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be longer than or equal to 1 characters", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='minLength')
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _error__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- evaluation.schema.json

def validate_evaluation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'graph', 'entry', 'revision', 'statusCode', 'alternativeRoutes', 'diagnostics']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.evaluation.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.evaluation.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be string", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be longer than or equal to 1 characters", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='minLength')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            if not isinstance(data__entry, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be string", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='type')
            if isinstance(data__entry, str):
                data__entry_len = len(data__entry)
                if data__entry_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be longer than or equal to 1 characters", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _evaluation__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "statusCode" in data_keys:
            data_keys.remove("statusCode")
            data__statusCode = data["statusCode"]
            _evaluation__definitions_statuscode(data__statusCode, custom_formats, (name_prefix or "data") + ".statusCode")
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            _evaluation__definitions_outcome(data__outcome, custom_formats, (name_prefix or "data") + ".outcome")
        if "primaryRoute" in data_keys:
            data_keys.remove("primaryRoute")
            data__primaryRoute = data["primaryRoute"]
            _evaluation__definitions_routesummary(data__primaryRoute, custom_formats, (name_prefix or "data") + ".primaryRoute")
        if "alternativeRoutes" in data_keys:
            data_keys.remove("alternativeRoutes")
            data__alternativeRoutes = data["alternativeRoutes"]
            if not isinstance(data__alternativeRoutes, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".alternativeRoutes must be array", value=data__alternativeRoutes, name="" + (name_prefix or "data") + ".alternativeRoutes", definition=None, rule='type')
            data__alternativeRoutes_is_list = isinstance(data__alternativeRoutes, (list, tuple))
            if data__alternativeRoutes_is_list:
                data__alternativeRoutes_len = len(data__alternativeRoutes)
                for data__alternativeRoutes_x, data__alternativeRoutes_item in enumerate(data__alternativeRoutes):
                    _evaluation__definitions_routesummary(data__alternativeRoutes_item, custom_formats, (name_prefix or "data") + f".alternativeRoutes[{data__alternativeRoutes_x}]")
        if "diagnostics" in data_keys:
            data_keys.remove("diagnostics")
            data__diagnostics = data["diagnostics"]
            if not isinstance(data__diagnostics, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".diagnostics must be array", value=data__diagnostics, name="" + (name_prefix or "data") + ".diagnostics", definition=None, rule='type')
            data__diagnostics_is_list = isinstance(data__diagnostics, (list, tuple))
            if data__diagnostics_is_list:
                data__diagnostics_len = len(data__diagnostics)
                for data__diagnostics_x, data__diagnostics_item in enumerate(data__diagnostics):
                    _evaluation__definitions_diagnostic(data__diagnostics_item, custom_formats, (name_prefix or "data") + f".diagnostics[{data__diagnostics_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _evaluation__definitions_diagnostic(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'severity', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            if not isinstance(data__code, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
            if isinstance(data__code, str):
                data__code_len = len(data__code)
                if data__code_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be longer than or equal to 1 characters", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='minLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _evaluation__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not isinstance(data__message, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string", value=data__message, name="" + (name_prefix or "data") + ".message", definition=None, rule='type')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            if not isinstance(data__path, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be string", value=data__path, name="" + (name_prefix or "data") + ".path", definition=None, rule='type')
        if "documentRef" in data_keys:
            data_keys.remove("documentRef")
            data__documentRef = data["documentRef"]
            if not isinstance(data__documentRef, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be string", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='type')
            if isinstance(data__documentRef, str):
                data__documentRef_len = len(data__documentRef)
                if data__documentRef_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be longer than or equal to 1 characters", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='minLength')
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _evaluation__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _evaluation__definitions_routesummary(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['routeId', 'graph', 'node', 'statusCode', 'reasonCode', 'availability', 'label']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "routeId" in data_keys:
            data_keys.remove("routeId")
            data__routeId = data["routeId"]
            if not isinstance(data__routeId, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".routeId must be string", value=data__routeId, name="" + (name_prefix or "data") + ".routeId", definition=None, rule='type')
            if isinstance(data__routeId, str):
                if not REGEX_PATTERNS['^route:[a-f0-9]{20}$'].search(data__routeId):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".routeId must match pattern ^route:[a-f0-9]{20}$", value=data__routeId, name="" + (name_prefix or "data") + ".routeId", definition=None, rule='pattern')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "node" in data_keys:
            data_keys.remove("node")
            data__node = data["node"]
            if not isinstance(data__node, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".node must be string", value=data__node, name="" + (name_prefix or "data") + ".node", definition=None, rule='type')
            if isinstance(data__node, str):
                data__node_len = len(data__node)
                if data__node_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".node must be longer than or equal to 1 characters", value=data__node, name="" + (name_prefix or "data") + ".node", definition=None, rule='minLength')
        if "statusCode" in data_keys:
            data_keys.remove("statusCode")
            data__statusCode = data["statusCode"]
            _evaluation__definitions_statuscode(data__statusCode, custom_formats, (name_prefix or "data") + ".statusCode")
        if "reasonCode" in data_keys:
            data_keys.remove("reasonCode")
            data__reasonCode = data["reasonCode"]
            _evaluation__definitions_reasoncode(data__reasonCode, custom_formats, (name_prefix or "data") + ".reasonCode")
        if "hint" in data_keys:
            data_keys.remove("hint")
            data__hint = data["hint"]
            if not isinstance(data__hint, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hint must be string", value=data__hint, name="" + (name_prefix or "data") + ".hint", definition=None, rule='type')
            if isinstance(data__hint, str):
                data__hint_len = len(data__hint)
                if data__hint_len > 160:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hint must be shorter than or equal to 160 characters", value=data__hint, name="" + (name_prefix or "data") + ".hint", definition=None, rule='maxLength')
        if "availability" in data_keys:
            data_keys.remove("availability")
            data__availability = data["availability"]
            _evaluation__definitions_availability(data__availability, custom_formats, (name_prefix or "data") + ".availability")
        if "label" in data_keys:
            data_keys.remove("label")
            data__label = data["label"]
            if not isinstance(data__label, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".label must be string", value=data__label, name="" + (name_prefix or "data") + ".label", definition=None, rule='type')
            if isinstance(data__label, str):
                data__label_len = len(data__label)
                if data__label_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".label must be longer than or equal to 1 characters", value=data__label, name="" + (name_prefix or "data") + ".label", definition=None, rule='minLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _evaluation__definitions_availability(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'immediate' or isinstance(data, str) and data == 'requires-user' or isinstance(data, str) and data == 'blocked'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['immediate', 'requires-user', 'blocked']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _evaluation__definitions_reasoncode(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _evaluation__definitions_outcome(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'completed' or isinstance(data, str) and data == 'partial' or isinstance(data, str) and data == 'failed' or isinstance(data, str) and data == 'unverified' or isinstance(data, str) and data == 'skipped' or isinstance(data, str) and data == 'pending' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'waiting-user'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['completed', 'partial', 'failed', 'unverified', 'skipped', 'pending', 'blocked', 'waiting-user']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _evaluation__definitions_statuscode(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'actionable' or isinstance(data, str) and data == 'waiting-user' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'complete' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['actionable', 'waiting-user', 'blocked', 'complete', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _evaluation__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- graph.schema.json

def validate_graph(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'entrypoints', 'nodes', 'edges']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.graph.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.graph.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _graph__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if "entrypoints" in data_keys:
            data_keys.remove("entrypoints")
            data__entrypoints = data["entrypoints"]
            if not isinstance(data__entrypoints, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entrypoints must be object", value=data__entrypoints, name="" + (name_prefix or "data") + ".entrypoints", definition=None, rule='type')
            data__entrypoints_is_dict = isinstance(data__entrypoints, dict)
            if data__entrypoints_is_dict:
                data__entrypoints_len = len(data__entrypoints)
                if data__entrypoints_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entrypoints must contain at least 1 properties", value=data__entrypoints, name="" + (name_prefix or "data") + ".entrypoints", definition=None, rule='minProperties')
                data__entrypoints_keys = set(data__entrypoints.keys())
                for data__entrypoints_key in data__entrypoints_keys:
                    if data__entrypoints_key not in []:
                        data__entrypoints_value = data__entrypoints.get(data__entrypoints_key)
                        _graph__definitions_identifier(data__entrypoints_value, custom_formats, (name_prefix or "data") + f".entrypoints.{data__entrypoints_key}")
                if data__entrypoints_len != 0:
                    data__entrypoints_property_names = True
                    for data__entrypoints_key in data__entrypoints:
                        try:
                            _graph__definitions_identifier(data__entrypoints_key, custom_formats, (name_prefix or "data") + ".entrypoints")
                        except (JsonSchemaValueException, JsonSchemaValuesException):
                            data__entrypoints_property_names = False
                    if not data__entrypoints_property_names:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".entrypoints must be named by propertyName definition", value=data__entrypoints, name="" + (name_prefix or "data") + ".entrypoints", definition=None, rule='propertyNames')
        if "nodes" in data_keys:
            data_keys.remove("nodes")
            data__nodes = data["nodes"]
            if not isinstance(data__nodes, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodes must be array", value=data__nodes, name="" + (name_prefix or "data") + ".nodes", definition=None, rule='type')
            data__nodes_is_list = isinstance(data__nodes, (list, tuple))
            if data__nodes_is_list:
                data__nodes_len = len(data__nodes)
                if data__nodes_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".nodes must contain at least 1 items", value=data__nodes, name="" + (name_prefix or "data") + ".nodes", definition=None, rule='minItems')
                for data__nodes_x, data__nodes_item in enumerate(data__nodes):
                    _graph__definitions_node(data__nodes_item, custom_formats, (name_prefix or "data") + f".nodes[{data__nodes_x}]")
        if "edges" in data_keys:
            data_keys.remove("edges")
            data__edges = data["edges"]
            if not isinstance(data__edges, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".edges must be array", value=data__edges, name="" + (name_prefix or "data") + ".edges", definition=None, rule='type')
            data__edges_is_list = isinstance(data__edges, (list, tuple))
            if data__edges_is_list:
                data__edges_len = len(data__edges)
                for data__edges_x, data__edges_item in enumerate(data__edges):
                    _graph__definitions_edge(data__edges_item, custom_formats, (name_prefix or "data") + f".edges[{data__edges_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _graph__definitions_edge(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['from', 'to']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "from" in data_keys:
            data_keys.remove("from")
            data__from = data["from"]
            _graph__definitions_identifier(data__from, custom_formats, (name_prefix or "data") + ".from")
        if "to" in data_keys:
            data_keys.remove("to")
            data__to = data["to"]
            _graph__definitions_identifier(data__to, custom_formats, (name_prefix or "data") + ".to")
        if "outcomes" in data_keys:
            data_keys.remove("outcomes")
            data__outcomes = data["outcomes"]
            if not isinstance(data__outcomes, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".outcomes must be array", value=data__outcomes, name="" + (name_prefix or "data") + ".outcomes", definition=None, rule='type')
            data__outcomes_is_list = isinstance(data__outcomes, (list, tuple))
            if data__outcomes_is_list:
                data__outcomes_len = len(data__outcomes)
                if data__outcomes_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".outcomes must contain at least 1 items", value=data__outcomes, name="" + (name_prefix or "data") + ".outcomes", definition=None, rule='minItems')
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                if data__outcomes_len > len(set(fn(data__outcomes_x) for data__outcomes_x in data__outcomes)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".outcomes must contain unique items", value=data__outcomes, name="" + (name_prefix or "data") + ".outcomes", definition=None, rule='uniqueItems')
                for data__outcomes_x, data__outcomes_item in enumerate(data__outcomes):
                    _graph__definitions_outcome(data__outcomes_item, custom_formats, (name_prefix or "data") + f".outcomes[{data__outcomes_x}]")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'flow' or isinstance(data__kind, str) and data__kind == 'consumes' or isinstance(data__kind, str) and data__kind == 'requires' or isinstance(data__kind, str) and data__kind == 'gatedBy' or isinstance(data__kind, str) and data__kind == 'repeat'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['flow', 'consumes', 'requires', 'gatedBy', 'repeat']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _graph__definitions_outcome(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'completed' or isinstance(data, str) and data == 'partial' or isinstance(data, str) and data == 'failed' or isinstance(data, str) and data == 'unverified' or isinstance(data, str) and data == 'skipped' or isinstance(data, str) and data == 'pending' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'waiting-user'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['completed', 'partial', 'failed', 'unverified', 'skipped', 'pending', 'blocked', 'waiting-user']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _graph__definitions_node(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['kind']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'action'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: action", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['action', 'reasonCode']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "graph" in data_keys:
                data_keys.remove("graph")
                data__graph = data["graph"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must NOT match a disallowed definition", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='not')
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "gate" in data_keys:
                data_keys.remove("gate")
                data__gate = data["gate"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must NOT match a disallowed definition", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='not')
            if "inspectionAction" in data_keys:
                data_keys.remove("inspectionAction")
                data__inspectionAction = data["inspectionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".inspectionAction must NOT match a disallowed definition", value=data__inspectionAction, name="" + (name_prefix or "data") + ".inspectionAction", definition=None, rule='not')
            if "resolutionAction" in data_keys:
                data_keys.remove("resolutionAction")
                data__resolutionAction = data["resolutionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resolutionAction must NOT match a disallowed definition", value=data__resolutionAction, name="" + (name_prefix or "data") + ".resolutionAction", definition=None, rule='not')
            if "delegated" in data_keys:
                data_keys.remove("delegated")
                data__delegated = data["delegated"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated must NOT match a disallowed definition", value=data__delegated, name="" + (name_prefix or "data") + ".delegated", definition=None, rule='not')
            if "terminalOutcome" in data_keys:
                data_keys.remove("terminalOutcome")
                data__terminalOutcome = data["terminalOutcome"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".terminalOutcome must NOT match a disallowed definition", value=data__terminalOutcome, name="" + (name_prefix or "data") + ".terminalOutcome", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['kind']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'gate'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: gate", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['gate', 'reasonCode']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "action" in data_keys:
                data_keys.remove("action")
                data__action = data["action"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".action must NOT match a disallowed definition", value=data__action, name="" + (name_prefix or "data") + ".action", definition=None, rule='not')
            if "graph" in data_keys:
                data_keys.remove("graph")
                data__graph = data["graph"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must NOT match a disallowed definition", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='not')
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "terminalOutcome" in data_keys:
                data_keys.remove("terminalOutcome")
                data__terminalOutcome = data["terminalOutcome"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".terminalOutcome must NOT match a disallowed definition", value=data__terminalOutcome, name="" + (name_prefix or "data") + ".terminalOutcome", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['kind']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'subgraph'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: subgraph", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['graph', 'entry']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "action" in data_keys:
                data_keys.remove("action")
                data__action = data["action"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".action must NOT match a disallowed definition", value=data__action, name="" + (name_prefix or "data") + ".action", definition=None, rule='not')
            if "gate" in data_keys:
                data_keys.remove("gate")
                data__gate = data["gate"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must NOT match a disallowed definition", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='not')
            if "inspectionAction" in data_keys:
                data_keys.remove("inspectionAction")
                data__inspectionAction = data["inspectionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".inspectionAction must NOT match a disallowed definition", value=data__inspectionAction, name="" + (name_prefix or "data") + ".inspectionAction", definition=None, rule='not')
            if "resolutionAction" in data_keys:
                data_keys.remove("resolutionAction")
                data__resolutionAction = data["resolutionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resolutionAction must NOT match a disallowed definition", value=data__resolutionAction, name="" + (name_prefix or "data") + ".resolutionAction", definition=None, rule='not')
            if "delegated" in data_keys:
                data_keys.remove("delegated")
                data__delegated = data["delegated"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated must NOT match a disallowed definition", value=data__delegated, name="" + (name_prefix or "data") + ".delegated", definition=None, rule='not')
            if "reasonCode" in data_keys:
                data_keys.remove("reasonCode")
                data__reasonCode = data["reasonCode"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reasonCode must NOT match a disallowed definition", value=data__reasonCode, name="" + (name_prefix or "data") + ".reasonCode", definition=None, rule='not')
            if "terminalOutcome" in data_keys:
                data_keys.remove("terminalOutcome")
                data__terminalOutcome = data["terminalOutcome"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".terminalOutcome must NOT match a disallowed definition", value=data__terminalOutcome, name="" + (name_prefix or "data") + ".terminalOutcome", definition=None, rule='not')
            if "satisfiedBy" in data_keys:
                data_keys.remove("satisfiedBy")
                data__satisfiedBy = data["satisfiedBy"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".satisfiedBy must NOT match a disallowed definition", value=data__satisfiedBy, name="" + (name_prefix or "data") + ".satisfiedBy", definition=None, rule='not')
            if "resources" in data_keys:
                data_keys.remove("resources")
                data__resources = data["resources"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must NOT match a disallowed definition", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='not')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['kind']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'terminal'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: terminal", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['terminalOutcome']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_keys = set(data.keys())
            if "action" in data_keys:
                data_keys.remove("action")
                data__action = data["action"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".action must NOT match a disallowed definition", value=data__action, name="" + (name_prefix or "data") + ".action", definition=None, rule='not')
            if "graph" in data_keys:
                data_keys.remove("graph")
                data__graph = data["graph"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must NOT match a disallowed definition", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='not')
            if "entry" in data_keys:
                data_keys.remove("entry")
                data__entry = data["entry"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must NOT match a disallowed definition", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='not')
            if "gate" in data_keys:
                data_keys.remove("gate")
                data__gate = data["gate"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must NOT match a disallowed definition", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='not')
            if "inspectionAction" in data_keys:
                data_keys.remove("inspectionAction")
                data__inspectionAction = data["inspectionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".inspectionAction must NOT match a disallowed definition", value=data__inspectionAction, name="" + (name_prefix or "data") + ".inspectionAction", definition=None, rule='not')
            if "resolutionAction" in data_keys:
                data_keys.remove("resolutionAction")
                data__resolutionAction = data["resolutionAction"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resolutionAction must NOT match a disallowed definition", value=data__resolutionAction, name="" + (name_prefix or "data") + ".resolutionAction", definition=None, rule='not')
            if "delegated" in data_keys:
                data_keys.remove("delegated")
                data__delegated = data["delegated"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated must NOT match a disallowed definition", value=data__delegated, name="" + (name_prefix or "data") + ".delegated", definition=None, rule='not')
            if "reasonCode" in data_keys:
                data_keys.remove("reasonCode")
                data__reasonCode = data["reasonCode"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".reasonCode must NOT match a disallowed definition", value=data__reasonCode, name="" + (name_prefix or "data") + ".reasonCode", definition=None, rule='not')
            if "satisfiedBy" in data_keys:
                data_keys.remove("satisfiedBy")
                data__satisfiedBy = data["satisfiedBy"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".satisfiedBy must NOT match a disallowed definition", value=data__satisfiedBy, name="" + (name_prefix or "data") + ".satisfiedBy", definition=None, rule='not')
            if "resources" in data_keys:
                data_keys.remove("resources")
                data__resources = data["resources"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must NOT match a disallowed definition", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='not')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'kind']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _graph__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'action' or isinstance(data__kind, str) and data__kind == 'gate' or isinstance(data__kind, str) and data__kind == 'subgraph' or isinstance(data__kind, str) and data__kind == 'terminal'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['action', 'gate', 'subgraph', 'terminal']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if "reasonCode" in data_keys:
            data_keys.remove("reasonCode")
            data__reasonCode = data["reasonCode"]
            _graph__definitions_reasoncode(data__reasonCode, custom_formats, (name_prefix or "data") + ".reasonCode")
        if "priority" in data_keys:
            data_keys.remove("priority")
            data__priority = data["priority"]
            if not isinstance(data__priority, (int)) and not (isinstance(data__priority, float) and data__priority.is_integer()) or isinstance(data__priority, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".priority must be integer", value=data__priority, name="" + (name_prefix or "data") + ".priority", definition=None, rule='type')
            if isinstance(data__priority, (int, float, Decimal)) and not isinstance(data__priority, bool):
                if data__priority < -1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".priority must be bigger than or equal to -1000", value=data__priority, name="" + (name_prefix or "data") + ".priority", definition=None, rule='minimum')
                if data__priority > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".priority must be smaller than or equal to 1000", value=data__priority, name="" + (name_prefix or "data") + ".priority", definition=None, rule='maximum')
        if "join" in data_keys:
            data_keys.remove("join")
            data__join = data["join"]
            if not (isinstance(data__join, str) and data__join == 'all' or isinstance(data__join, str) and data__join == 'any'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".join must be one of ['all', 'any']", value=data__join, name="" + (name_prefix or "data") + ".join", definition=None, rule='enum')
        if "action" in data_keys:
            data_keys.remove("action")
            data__action = data["action"]
            _graph__definitions_relativepath(data__action, custom_formats, (name_prefix or "data") + ".action")
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            _graph__definitions_identifier(data__graph, custom_formats, (name_prefix or "data") + ".graph")
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            _graph__definitions_identifier(data__entry, custom_formats, (name_prefix or "data") + ".entry")
        if "gate" in data_keys:
            data_keys.remove("gate")
            data__gate = data["gate"]
            if not isinstance(data__gate, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must be object", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='type')
            data__gate_is_dict = isinstance(data__gate, dict)
            if data__gate_is_dict:
                data__gate__missing_keys = set(['id', 'prompt']) - data__gate.keys()
                if data__gate__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must contain " + (str(sorted(data__gate__missing_keys)) + " properties"), value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='required')
                data__gate_keys = set(data__gate.keys())
                if "id" in data__gate_keys:
                    data__gate_keys.remove("id")
                    data__gate__id = data__gate["id"]
                    _graph__definitions_identifier(data__gate__id, custom_formats, (name_prefix or "data") + ".gate.id")
                if "prompt" in data__gate_keys:
                    data__gate_keys.remove("prompt")
                    data__gate__prompt = data__gate["prompt"]
                    if not isinstance(data__gate__prompt, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.prompt must be string", value=data__gate__prompt, name="" + (name_prefix or "data") + ".gate.prompt", definition=None, rule='type')
                    if isinstance(data__gate__prompt, str):
                        data__gate__prompt_len = len(data__gate__prompt)
                        if data__gate__prompt_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.prompt must be longer than or equal to 1 characters", value=data__gate__prompt, name="" + (name_prefix or "data") + ".gate.prompt", definition=None, rule='minLength')
                        if data__gate__prompt_len > 1000:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.prompt must be shorter than or equal to 1000 characters", value=data__gate__prompt, name="" + (name_prefix or "data") + ".gate.prompt", definition=None, rule='maxLength')
                if "authority" in data__gate_keys:
                    data__gate_keys.remove("authority")
                    data__gate__authority = data__gate["authority"]
                    _graph__definitions_identifier(data__gate__authority, custom_formats, (name_prefix or "data") + ".gate.authority")
                if "delegatable" in data__gate_keys:
                    data__gate_keys.remove("delegatable")
                    data__gate__delegatable = data__gate["delegatable"]
                    if not isinstance(data__gate__delegatable, (bool)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.delegatable must be boolean", value=data__gate__delegatable, name="" + (name_prefix or "data") + ".gate.delegatable", definition=None, rule='type')
                if data__gate_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must not contain "+str(data__gate_keys)+" properties", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='additionalProperties')
        if "inspectionAction" in data_keys:
            data_keys.remove("inspectionAction")
            data__inspectionAction = data["inspectionAction"]
            _graph__definitions_relativepath(data__inspectionAction, custom_formats, (name_prefix or "data") + ".inspectionAction")
        if "resolutionAction" in data_keys:
            data_keys.remove("resolutionAction")
            data__resolutionAction = data["resolutionAction"]
            _graph__definitions_relativepath(data__resolutionAction, custom_formats, (name_prefix or "data") + ".resolutionAction")
        if "delegated" in data_keys:
            data_keys.remove("delegated")
            data__delegated = data["delegated"]
            if not isinstance(data__delegated, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated must be object", value=data__delegated, name="" + (name_prefix or "data") + ".delegated", definition=None, rule='type')
            data__delegated_is_dict = isinstance(data__delegated, dict)
            if data__delegated_is_dict:
                data__delegated_keys = set(data__delegated.keys())
                if "inspection" in data__delegated_keys:
                    data__delegated_keys.remove("inspection")
                    data__delegated__inspection = data__delegated["inspection"]
                    if not (isinstance(data__delegated__inspection, str) and data__delegated__inspection == 'required' or isinstance(data__delegated__inspection, str) and data__delegated__inspection == 'skip'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated.inspection must be one of ['required', 'skip']", value=data__delegated__inspection, name="" + (name_prefix or "data") + ".delegated.inspection", definition=None, rule='enum')
                if "resolutionAction" in data__delegated_keys:
                    data__delegated_keys.remove("resolutionAction")
                    data__delegated__resolutionAction = data__delegated["resolutionAction"]
                    _graph__definitions_relativepath(data__delegated__resolutionAction, custom_formats, (name_prefix or "data") + ".delegated.resolutionAction")
                if "resources" in data__delegated_keys:
                    data__delegated_keys.remove("resources")
                    data__delegated__resources = data__delegated["resources"]
                    _graph__definitions_resourcerefs(data__delegated__resources, custom_formats, (name_prefix or "data") + ".delegated.resources")
                if data__delegated_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".delegated must not contain "+str(data__delegated_keys)+" properties", value=data__delegated, name="" + (name_prefix or "data") + ".delegated", definition=None, rule='additionalProperties')
        if "terminalOutcome" in data_keys:
            data_keys.remove("terminalOutcome")
            data__terminalOutcome = data["terminalOutcome"]
            _graph__definitions_outcome(data__terminalOutcome, custom_formats, (name_prefix or "data") + ".terminalOutcome")
        if "requiresFacts" in data_keys:
            data_keys.remove("requiresFacts")
            data__requiresFacts = data["requiresFacts"]
            if not isinstance(data__requiresFacts, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".requiresFacts must be array", value=data__requiresFacts, name="" + (name_prefix or "data") + ".requiresFacts", definition=None, rule='type')
            data__requiresFacts_is_list = isinstance(data__requiresFacts, (list, tuple))
            if data__requiresFacts_is_list:
                data__requiresFacts_len = len(data__requiresFacts)
                for data__requiresFacts_x, data__requiresFacts_item in enumerate(data__requiresFacts):
                    _graph__definitions_factcheck(data__requiresFacts_item, custom_formats, (name_prefix or "data") + f".requiresFacts[{data__requiresFacts_x}]")
        if "satisfiedBy" in data_keys:
            data_keys.remove("satisfiedBy")
            data__satisfiedBy = data["satisfiedBy"]
            if not isinstance(data__satisfiedBy, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".satisfiedBy must be array", value=data__satisfiedBy, name="" + (name_prefix or "data") + ".satisfiedBy", definition=None, rule='type')
            data__satisfiedBy_is_list = isinstance(data__satisfiedBy, (list, tuple))
            if data__satisfiedBy_is_list:
                data__satisfiedBy_len = len(data__satisfiedBy)
                if data__satisfiedBy_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".satisfiedBy must contain at least 1 items", value=data__satisfiedBy, name="" + (name_prefix or "data") + ".satisfiedBy", definition=None, rule='minItems')
                for data__satisfiedBy_x, data__satisfiedBy_item in enumerate(data__satisfiedBy):
                    _graph__definitions_factcheck(data__satisfiedBy_item, custom_formats, (name_prefix or "data") + f".satisfiedBy[{data__satisfiedBy_x}]")
        if "resources" in data_keys:
            data_keys.remove("resources")
            data__resources = data["resources"]
            _graph__definitions_resourcerefs(data__resources, custom_formats, (name_prefix or "data") + ".resources")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _graph__definitions_factcheck(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['path']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            if not isinstance(data__path, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be string", value=data__path, name="" + (name_prefix or "data") + ".path", definition=None, rule='type')
            if isinstance(data__path, str):
                if not REGEX_PATTERNS['^[A-Za-z0-9_.-]+$'].search(data__path):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must match pattern ^[A-Za-z0-9_.-]+$", value=data__path, name="" + (name_prefix or "data") + ".path", definition=None, rule='pattern')
        if "equals" in data_keys:
            data_keys.remove("equals")
            data__equals = data["equals"]
            if not isinstance(data__equals, (str, int, float, Decimal, bool, NoneType)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".equals must be string or number or boolean or null", value=data__equals, name="" + (name_prefix or "data") + ".equals", definition=None, rule='type')
        if "exists" in data_keys:
            data_keys.remove("exists")
            data__exists = data["exists"]
            if not isinstance(data__exists, (bool)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".exists must be boolean", value=data__exists, name="" + (name_prefix or "data") + ".exists", definition=None, rule='type')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['equals']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data__missing_keys = set(['exists']) - data.keys()
            if data__missing_keys:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
    else:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data_keys = set(data.keys())
            if "exists" in data_keys:
                data_keys.remove("exists")
                data__exists = data["exists"]
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".exists must NOT match a disallowed definition", value=data__exists, name="" + (name_prefix or "data") + ".exists", definition=None, rule='not')
    return data

def _graph__definitions_resourcerefs(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_keys = set(data.keys())
        if "required" in data_keys:
            data_keys.remove("required")
            data__required = data["required"]
            if not isinstance(data__required, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".required must be array", value=data__required, name="" + (name_prefix or "data") + ".required", definition=None, rule='type')
            data__required_is_list = isinstance(data__required, (list, tuple))
            if data__required_is_list:
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                data__required_len = len(data__required)
                if data__required_len > len(set(fn(data__required_x) for data__required_x in data__required)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".required must contain unique items", value=data__required, name="" + (name_prefix or "data") + ".required", definition=None, rule='uniqueItems')
                for data__required_x, data__required_item in enumerate(data__required):
                    _graph__definitions_relativepath(data__required_item, custom_formats, (name_prefix or "data") + f".required[{data__required_x}]")
        if "recommended" in data_keys:
            data_keys.remove("recommended")
            data__recommended = data["recommended"]
            if not isinstance(data__recommended, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".recommended must be array", value=data__recommended, name="" + (name_prefix or "data") + ".recommended", definition=None, rule='type')
            data__recommended_is_list = isinstance(data__recommended, (list, tuple))
            if data__recommended_is_list:
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                data__recommended_len = len(data__recommended)
                if data__recommended_len > len(set(fn(data__recommended_x) for data__recommended_x in data__recommended)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".recommended must contain unique items", value=data__recommended, name="" + (name_prefix or "data") + ".recommended", definition=None, rule='uniqueItems')
                for data__recommended_x, data__recommended_item in enumerate(data__recommended):
                    _graph__definitions_relativepath(data__recommended_item, custom_formats, (name_prefix or "data") + f".recommended[{data__recommended_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _graph__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _graph__definitions_reasoncode(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _graph__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- host-action-result.schema.json

def validate_host_action_result(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'handler', 'input_digest', 'output', 'receipt']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.host-action-result.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.host-action-result.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "handler" in data_keys:
            data_keys.remove("handler")
            data__handler = data["handler"]
            if not isinstance(data__handler, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must be string", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='type')
            if isinstance(data__handler, str):
                data__handler_len = len(data__handler)
                if data__handler_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must be longer than or equal to 1 characters", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='minLength')
        if "input_digest" in data_keys:
            data_keys.remove("input_digest")
            data__inputdigest = data["input_digest"]
            _host_action_result__definitions_digest(data__inputdigest, custom_formats, (name_prefix or "data") + ".input_digest")
        if "output" in data_keys:
            data_keys.remove("output")
            data__output = data["output"]
            if not isinstance(data__output, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must be object", value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='type')
            data__output_one_of_count1 = 0
            if data__output_one_of_count1 < 2:
                try:
                    data__output_is_dict = isinstance(data__output, dict)
                    if data__output_is_dict:
                        data__output__missing_keys = set(['inline']) - data__output.keys()
                        if data__output__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must contain " + (str(sorted(data__output__missing_keys)) + " properties"), value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='required')
                    data__output_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__output_one_of_count1 < 2:
                try:
                    data__output_is_dict = isinstance(data__output, dict)
                    if data__output_is_dict:
                        data__output__missing_keys = set(['resource']) - data__output.keys()
                        if data__output__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must contain " + (str(sorted(data__output__missing_keys)) + " properties"), value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='required')
                    data__output_one_of_count1 += 1
                except (JsonSchemaValueException, JsonSchemaValuesException): pass
            if data__output_one_of_count1 != 1:
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must be valid exactly by one definition" + (" (" + str(data__output_one_of_count1) + " matches found)"), value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='oneOf')
            data__output_is_dict = isinstance(data__output, dict)
            if data__output_is_dict:
                data__output__missing_keys = set(['schema']) - data__output.keys()
                if data__output__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must contain " + (str(sorted(data__output__missing_keys)) + " properties"), value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='required')
                data__output_keys = set(data__output.keys())
                if "schema" in data__output_keys:
                    data__output_keys.remove("schema")
                    data__output__schema = data__output["schema"]
                    _host_action_result__definitions_protocolidentity(data__output__schema, custom_formats, (name_prefix or "data") + ".output.schema")
                if "inline" in data__output_keys:
                    data__output_keys.remove("inline")
                    data__output__inline = data__output["inline"]
                if "resource" in data__output_keys:
                    data__output_keys.remove("resource")
                    data__output__resource = data__output["resource"]
                    if not isinstance(data__output__resource, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".output.resource must be object", value=data__output__resource, name="" + (name_prefix or "data") + ".output.resource", definition=None, rule='type')
                    data__output__resource_is_dict = isinstance(data__output__resource, dict)
                    if data__output__resource_is_dict:
                        data__output__resource__missing_keys = set(['ref', 'digest']) - data__output__resource.keys()
                        if data__output__resource__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".output.resource must contain " + (str(sorted(data__output__resource__missing_keys)) + " properties"), value=data__output__resource, name="" + (name_prefix or "data") + ".output.resource", definition=None, rule='required')
                        data__output__resource_keys = set(data__output__resource.keys())
                        if "ref" in data__output__resource_keys:
                            data__output__resource_keys.remove("ref")
                            data__output__resource__ref = data__output__resource["ref"]
                            if not isinstance(data__output__resource__ref, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + ".output.resource.ref must be string", value=data__output__resource__ref, name="" + (name_prefix or "data") + ".output.resource.ref", definition=None, rule='type')
                            if isinstance(data__output__resource__ref, str):
                                data__output__resource__ref_len = len(data__output__resource__ref)
                                if data__output__resource__ref_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".output.resource.ref must be longer than or equal to 1 characters", value=data__output__resource__ref, name="" + (name_prefix or "data") + ".output.resource.ref", definition=None, rule='minLength')
                        if "digest" in data__output__resource_keys:
                            data__output__resource_keys.remove("digest")
                            data__output__resource__digest = data__output__resource["digest"]
                            _host_action_result__definitions_digest(data__output__resource__digest, custom_formats, (name_prefix or "data") + ".output.resource.digest")
                        if data__output__resource_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".output.resource must not contain "+str(data__output__resource_keys)+" properties", value=data__output__resource, name="" + (name_prefix or "data") + ".output.resource", definition=None, rule='additionalProperties')
                if data__output_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".output must not contain "+str(data__output_keys)+" properties", value=data__output, name="" + (name_prefix or "data") + ".output", definition=None, rule='additionalProperties')
        if "receipt" in data_keys:
            data_keys.remove("receipt")
            data__receipt = data["receipt"]
            if not isinstance(data__receipt, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must be object", value=data__receipt, name="" + (name_prefix or "data") + ".receipt", definition=None, rule='type')
            data__receipt_is_dict = isinstance(data__receipt, dict)
            if data__receipt_is_dict:
                data__receipt__missing_keys = set(['adapter', 'adapter_version']) - data__receipt.keys()
                if data__receipt__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must contain " + (str(sorted(data__receipt__missing_keys)) + " properties"), value=data__receipt, name="" + (name_prefix or "data") + ".receipt", definition=None, rule='required')
                data__receipt_keys = set(data__receipt.keys())
                if "adapter" in data__receipt_keys:
                    data__receipt_keys.remove("adapter")
                    data__receipt__adapter = data__receipt["adapter"]
                    if not isinstance(data__receipt__adapter, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.adapter must be string", value=data__receipt__adapter, name="" + (name_prefix or "data") + ".receipt.adapter", definition=None, rule='type')
                    if isinstance(data__receipt__adapter, str):
                        data__receipt__adapter_len = len(data__receipt__adapter)
                        if data__receipt__adapter_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.adapter must be longer than or equal to 1 characters", value=data__receipt__adapter, name="" + (name_prefix or "data") + ".receipt.adapter", definition=None, rule='minLength')
                if "adapter_version" in data__receipt_keys:
                    data__receipt_keys.remove("adapter_version")
                    data__receipt__adapterversion = data__receipt["adapter_version"]
                    if not isinstance(data__receipt__adapterversion, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.adapter_version must be string", value=data__receipt__adapterversion, name="" + (name_prefix or "data") + ".receipt.adapter_version", definition=None, rule='type')
                    if isinstance(data__receipt__adapterversion, str):
                        data__receipt__adapterversion_len = len(data__receipt__adapterversion)
                        if data__receipt__adapterversion_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt.adapter_version must be longer than or equal to 1 characters", value=data__receipt__adapterversion, name="" + (name_prefix or "data") + ".receipt.adapter_version", definition=None, rule='minLength')
                if data__receipt_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipt must not contain "+str(data__receipt_keys)+" properties", value=data__receipt, name="" + (name_prefix or "data") + ".receipt", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _host_action_result__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _host_action_result__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- inspect.schema.json

def validate_inspect(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'counts', 'graphs', 'actions', 'resources', 'codes']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.inspect.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.inspect.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be object", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            data__provider_is_dict = isinstance(data__provider, dict)
            if data__provider_is_dict:
                data__provider__missing_keys = set(['id', 'version', 'manifest']) - data__provider.keys()
                if data__provider__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must contain " + (str(sorted(data__provider__missing_keys)) + " properties"), value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='required')
                data__provider_keys = set(data__provider.keys())
                if "id" in data__provider_keys:
                    data__provider_keys.remove("id")
                    data__provider__id = data__provider["id"]
                    if not isinstance(data__provider__id, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.id must be string", value=data__provider__id, name="" + (name_prefix or "data") + ".provider.id", definition=None, rule='type')
                    if isinstance(data__provider__id, str):
                        data__provider__id_len = len(data__provider__id)
                        if data__provider__id_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.id must be longer than or equal to 1 characters", value=data__provider__id, name="" + (name_prefix or "data") + ".provider.id", definition=None, rule='minLength')
                if "version" in data__provider_keys:
                    data__provider_keys.remove("version")
                    data__provider__version = data__provider["version"]
                    if not isinstance(data__provider__version, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.version must be string", value=data__provider__version, name="" + (name_prefix or "data") + ".provider.version", definition=None, rule='type')
                    if isinstance(data__provider__version, str):
                        data__provider__version_len = len(data__provider__version)
                        if data__provider__version_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.version must be longer than or equal to 1 characters", value=data__provider__version, name="" + (name_prefix or "data") + ".provider.version", definition=None, rule='minLength')
                if "manifest" in data__provider_keys:
                    data__provider_keys.remove("manifest")
                    data__provider__manifest = data__provider["manifest"]
                    if not isinstance(data__provider__manifest, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.manifest must be string", value=data__provider__manifest, name="" + (name_prefix or "data") + ".provider.manifest", definition=None, rule='type')
                    if isinstance(data__provider__manifest, str):
                        data__provider__manifest_len = len(data__provider__manifest)
                        if data__provider__manifest_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider.manifest must be longer than or equal to 1 characters", value=data__provider__manifest, name="" + (name_prefix or "data") + ".provider.manifest", definition=None, rule='minLength')
                if data__provider_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must not contain "+str(data__provider_keys)+" properties", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='additionalProperties')
        if "counts" in data_keys:
            data_keys.remove("counts")
            data__counts = data["counts"]
            if not isinstance(data__counts, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must be object", value=data__counts, name="" + (name_prefix or "data") + ".counts", definition=None, rule='type')
            data__counts_is_dict = isinstance(data__counts, dict)
            if data__counts_is_dict:
                data__counts__missing_keys = set(['graphs', 'nodes', 'edges', 'actions', 'resources', 'codes']) - data__counts.keys()
                if data__counts__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must contain " + (str(sorted(data__counts__missing_keys)) + " properties"), value=data__counts, name="" + (name_prefix or "data") + ".counts", definition=None, rule='required')
                data__counts_keys = set(data__counts.keys())
                if "graphs" in data__counts_keys:
                    data__counts_keys.remove("graphs")
                    data__counts__graphs = data__counts["graphs"]
                    _inspect__definitions_count(data__counts__graphs, custom_formats, (name_prefix or "data") + ".counts.graphs")
                if "nodes" in data__counts_keys:
                    data__counts_keys.remove("nodes")
                    data__counts__nodes = data__counts["nodes"]
                    _inspect__definitions_count(data__counts__nodes, custom_formats, (name_prefix or "data") + ".counts.nodes")
                if "edges" in data__counts_keys:
                    data__counts_keys.remove("edges")
                    data__counts__edges = data__counts["edges"]
                    _inspect__definitions_count(data__counts__edges, custom_formats, (name_prefix or "data") + ".counts.edges")
                if "actions" in data__counts_keys:
                    data__counts_keys.remove("actions")
                    data__counts__actions = data__counts["actions"]
                    _inspect__definitions_count(data__counts__actions, custom_formats, (name_prefix or "data") + ".counts.actions")
                if "resources" in data__counts_keys:
                    data__counts_keys.remove("resources")
                    data__counts__resources = data__counts["resources"]
                    _inspect__definitions_count(data__counts__resources, custom_formats, (name_prefix or "data") + ".counts.resources")
                if "codes" in data__counts_keys:
                    data__counts_keys.remove("codes")
                    data__counts__codes = data__counts["codes"]
                    _inspect__definitions_count(data__counts__codes, custom_formats, (name_prefix or "data") + ".counts.codes")
                if data__counts_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".counts must not contain "+str(data__counts_keys)+" properties", value=data__counts, name="" + (name_prefix or "data") + ".counts", definition=None, rule='additionalProperties')
        if "graphs" in data_keys:
            data_keys.remove("graphs")
            data__graphs = data["graphs"]
            if not isinstance(data__graphs, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphs must be array", value=data__graphs, name="" + (name_prefix or "data") + ".graphs", definition=None, rule='type')
            data__graphs_is_list = isinstance(data__graphs, (list, tuple))
            if data__graphs_is_list:
                data__graphs_len = len(data__graphs)
                for data__graphs_x, data__graphs_item in enumerate(data__graphs):
                    if not isinstance(data__graphs_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + " must be object", value=data__graphs_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + "", definition=None, rule='type')
                    data__graphs_item_is_dict = isinstance(data__graphs_item, dict)
                    if data__graphs_item_is_dict:
                        data__graphs_item__missing_keys = set(['id', 'path', 'entrypoints', 'nodes', 'dependencies']) - data__graphs_item.keys()
                        if data__graphs_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + " must contain " + (str(sorted(data__graphs_item__missing_keys)) + " properties"), value=data__graphs_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + "", definition=None, rule='required')
                        data__graphs_item_keys = set(data__graphs_item.keys())
                        if "id" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("id")
                            data__graphs_item__id = data__graphs_item["id"]
                            if not isinstance(data__graphs_item__id, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].id" + " must be string", value=data__graphs_item__id, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].id" + "", definition=None, rule='type')
                            if isinstance(data__graphs_item__id, str):
                                data__graphs_item__id_len = len(data__graphs_item__id)
                                if data__graphs_item__id_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].id" + " must be longer than or equal to 1 characters", value=data__graphs_item__id, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].id" + "", definition=None, rule='minLength')
                        if "description" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("description")
                            data__graphs_item__description = data__graphs_item["description"]
                            if not isinstance(data__graphs_item__description, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].description" + " must be string", value=data__graphs_item__description, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].description" + "", definition=None, rule='type')
                        if "path" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("path")
                            data__graphs_item__path = data__graphs_item["path"]
                            if not isinstance(data__graphs_item__path, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].path" + " must be string", value=data__graphs_item__path, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].path" + "", definition=None, rule='type')
                            if isinstance(data__graphs_item__path, str):
                                data__graphs_item__path_len = len(data__graphs_item__path)
                                if data__graphs_item__path_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].path" + " must be longer than or equal to 1 characters", value=data__graphs_item__path, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].path" + "", definition=None, rule='minLength')
                        if "entrypoints" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("entrypoints")
                            data__graphs_item__entrypoints = data__graphs_item["entrypoints"]
                            if not isinstance(data__graphs_item__entrypoints, (dict)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].entrypoints" + " must be object", value=data__graphs_item__entrypoints, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].entrypoints" + "", definition=None, rule='type')
                            data__graphs_item__entrypoints_is_dict = isinstance(data__graphs_item__entrypoints, dict)
                            if data__graphs_item__entrypoints_is_dict:
                                data__graphs_item__entrypoints_keys = set(data__graphs_item__entrypoints.keys())
                                for data__graphs_item__entrypoints_key in data__graphs_item__entrypoints_keys:
                                    if data__graphs_item__entrypoints_key not in []:
                                        data__graphs_item__entrypoints_value = data__graphs_item__entrypoints.get(data__graphs_item__entrypoints_key)
                                        if not isinstance(data__graphs_item__entrypoints_value, (str)):
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].entrypoints.{data__graphs_item__entrypoints_key}" + " must be string", value=data__graphs_item__entrypoints_value, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].entrypoints.{data__graphs_item__entrypoints_key}" + "", definition=None, rule='type')
                        if "nodes" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("nodes")
                            data__graphs_item__nodes = data__graphs_item["nodes"]
                            if not isinstance(data__graphs_item__nodes, (list, tuple)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes" + " must be array", value=data__graphs_item__nodes, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes" + "", definition=None, rule='type')
                            data__graphs_item__nodes_is_list = isinstance(data__graphs_item__nodes, (list, tuple))
                            if data__graphs_item__nodes_is_list:
                                data__graphs_item__nodes_len = len(data__graphs_item__nodes)
                                for data__graphs_item__nodes_x, data__graphs_item__nodes_item in enumerate(data__graphs_item__nodes):
                                    if not isinstance(data__graphs_item__nodes_item, (dict)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + " must be object", value=data__graphs_item__nodes_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + "", definition=None, rule='type')
                                    data__graphs_item__nodes_item_is_dict = isinstance(data__graphs_item__nodes_item, dict)
                                    if data__graphs_item__nodes_item_is_dict:
                                        data__graphs_item__nodes_item__missing_keys = set(['id', 'kind', 'priority']) - data__graphs_item__nodes_item.keys()
                                        if data__graphs_item__nodes_item__missing_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + " must contain " + (str(sorted(data__graphs_item__nodes_item__missing_keys)) + " properties"), value=data__graphs_item__nodes_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + "", definition=None, rule='required')
                                        data__graphs_item__nodes_item_keys = set(data__graphs_item__nodes_item.keys())
                                        if "id" in data__graphs_item__nodes_item_keys:
                                            data__graphs_item__nodes_item_keys.remove("id")
                                            data__graphs_item__nodes_item__id = data__graphs_item__nodes_item["id"]
                                            if not isinstance(data__graphs_item__nodes_item__id, (str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].id" + " must be string", value=data__graphs_item__nodes_item__id, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].id" + "", definition=None, rule='type')
                                            if isinstance(data__graphs_item__nodes_item__id, str):
                                                data__graphs_item__nodes_item__id_len = len(data__graphs_item__nodes_item__id)
                                                if data__graphs_item__nodes_item__id_len < 1:
                                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].id" + " must be longer than or equal to 1 characters", value=data__graphs_item__nodes_item__id, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].id" + "", definition=None, rule='minLength')
                                        if "kind" in data__graphs_item__nodes_item_keys:
                                            data__graphs_item__nodes_item_keys.remove("kind")
                                            data__graphs_item__nodes_item__kind = data__graphs_item__nodes_item["kind"]
                                            if not (isinstance(data__graphs_item__nodes_item__kind, str) and data__graphs_item__nodes_item__kind == 'action' or isinstance(data__graphs_item__nodes_item__kind, str) and data__graphs_item__nodes_item__kind == 'gate' or isinstance(data__graphs_item__nodes_item__kind, str) and data__graphs_item__nodes_item__kind == 'subgraph' or isinstance(data__graphs_item__nodes_item__kind, str) and data__graphs_item__nodes_item__kind == 'terminal'):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].kind" + " must be one of ['action', 'gate', 'subgraph', 'terminal']", value=data__graphs_item__nodes_item__kind, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].kind" + "", definition=None, rule='enum')
                                        if "description" in data__graphs_item__nodes_item_keys:
                                            data__graphs_item__nodes_item_keys.remove("description")
                                            data__graphs_item__nodes_item__description = data__graphs_item__nodes_item["description"]
                                            if not isinstance(data__graphs_item__nodes_item__description, (str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].description" + " must be string", value=data__graphs_item__nodes_item__description, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].description" + "", definition=None, rule='type')
                                        if "reasonCode" in data__graphs_item__nodes_item_keys:
                                            data__graphs_item__nodes_item_keys.remove("reasonCode")
                                            data__graphs_item__nodes_item__reasonCode = data__graphs_item__nodes_item["reasonCode"]
                                            if not isinstance(data__graphs_item__nodes_item__reasonCode, (str)):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].reasonCode" + " must be string", value=data__graphs_item__nodes_item__reasonCode, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].reasonCode" + "", definition=None, rule='type')
                                        if "priority" in data__graphs_item__nodes_item_keys:
                                            data__graphs_item__nodes_item_keys.remove("priority")
                                            data__graphs_item__nodes_item__priority = data__graphs_item__nodes_item["priority"]
                                            if not isinstance(data__graphs_item__nodes_item__priority, (int)) and not (isinstance(data__graphs_item__nodes_item__priority, float) and data__graphs_item__nodes_item__priority.is_integer()) or isinstance(data__graphs_item__nodes_item__priority, bool):
                                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].priority" + " must be integer", value=data__graphs_item__nodes_item__priority, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}].priority" + "", definition=None, rule='type')
                                        if data__graphs_item__nodes_item_keys:
                                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + " must not contain "+str(data__graphs_item__nodes_item_keys)+" properties", value=data__graphs_item__nodes_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].nodes[{data__graphs_item__nodes_x}]" + "", definition=None, rule='additionalProperties')
                        if "dependencies" in data__graphs_item_keys:
                            data__graphs_item_keys.remove("dependencies")
                            data__graphs_item__dependencies = data__graphs_item["dependencies"]
                            if not isinstance(data__graphs_item__dependencies, (list, tuple)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies" + " must be array", value=data__graphs_item__dependencies, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies" + "", definition=None, rule='type')
                            data__graphs_item__dependencies_is_list = isinstance(data__graphs_item__dependencies, (list, tuple))
                            if data__graphs_item__dependencies_is_list:
                                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                                data__graphs_item__dependencies_len = len(data__graphs_item__dependencies)
                                if data__graphs_item__dependencies_len > len(set(fn(data__graphs_item__dependencies_x) for data__graphs_item__dependencies_x in data__graphs_item__dependencies)):
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies" + " must contain unique items", value=data__graphs_item__dependencies, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies" + "", definition=None, rule='uniqueItems')
                                for data__graphs_item__dependencies_x, data__graphs_item__dependencies_item in enumerate(data__graphs_item__dependencies):
                                    if not isinstance(data__graphs_item__dependencies_item, (str)):
                                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies[{data__graphs_item__dependencies_x}]" + " must be string", value=data__graphs_item__dependencies_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}].dependencies[{data__graphs_item__dependencies_x}]" + "", definition=None, rule='type')
                        if data__graphs_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + " must not contain "+str(data__graphs_item_keys)+" properties", value=data__graphs_item, name="" + (name_prefix or "data") + f".graphs[{data__graphs_x}]" + "", definition=None, rule='additionalProperties')
        if "actions" in data_keys:
            data_keys.remove("actions")
            data__actions = data["actions"]
            if not isinstance(data__actions, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".actions must be array", value=data__actions, name="" + (name_prefix or "data") + ".actions", definition=None, rule='type')
            data__actions_is_list = isinstance(data__actions, (list, tuple))
            if data__actions_is_list:
                data__actions_len = len(data__actions)
                for data__actions_x, data__actions_item in enumerate(data__actions):
                    if not isinstance(data__actions_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}]" + " must be object", value=data__actions_item, name="" + (name_prefix or "data") + f".actions[{data__actions_x}]" + "", definition=None, rule='type')
                    data__actions_item_is_dict = isinstance(data__actions_item, dict)
                    if data__actions_item_is_dict:
                        data__actions_item__missing_keys = set(['id', 'runner', 'effect', 'path']) - data__actions_item.keys()
                        if data__actions_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}]" + " must contain " + (str(sorted(data__actions_item__missing_keys)) + " properties"), value=data__actions_item, name="" + (name_prefix or "data") + f".actions[{data__actions_x}]" + "", definition=None, rule='required')
                        data__actions_item_keys = set(data__actions_item.keys())
                        if "id" in data__actions_item_keys:
                            data__actions_item_keys.remove("id")
                            data__actions_item__id = data__actions_item["id"]
                            if not isinstance(data__actions_item__id, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].id" + " must be string", value=data__actions_item__id, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].id" + "", definition=None, rule='type')
                            if isinstance(data__actions_item__id, str):
                                data__actions_item__id_len = len(data__actions_item__id)
                                if data__actions_item__id_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].id" + " must be longer than or equal to 1 characters", value=data__actions_item__id, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].id" + "", definition=None, rule='minLength')
                        if "runner" in data__actions_item_keys:
                            data__actions_item_keys.remove("runner")
                            data__actions_item__runner = data__actions_item["runner"]
                            if not (isinstance(data__actions_item__runner, str) and data__actions_item__runner == 'command' or isinstance(data__actions_item__runner, str) and data__actions_item__runner == 'script' or isinstance(data__actions_item__runner, str) and data__actions_item__runner == 'agent' or isinstance(data__actions_item__runner, str) and data__actions_item__runner == 'host'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].runner" + " must be one of ['command', 'script', 'agent', 'host']", value=data__actions_item__runner, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].runner" + "", definition=None, rule='enum')
                        if "effect" in data__actions_item_keys:
                            data__actions_item_keys.remove("effect")
                            data__actions_item__effect = data__actions_item["effect"]
                            if not (isinstance(data__actions_item__effect, str) and data__actions_item__effect == 'read' or isinstance(data__actions_item__effect, str) and data__actions_item__effect == 'write' or isinstance(data__actions_item__effect, str) and data__actions_item__effect == 'external'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].effect" + " must be one of ['read', 'write', 'external']", value=data__actions_item__effect, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].effect" + "", definition=None, rule='enum')
                        if "path" in data__actions_item_keys:
                            data__actions_item_keys.remove("path")
                            data__actions_item__path = data__actions_item["path"]
                            if not isinstance(data__actions_item__path, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].path" + " must be string", value=data__actions_item__path, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].path" + "", definition=None, rule='type')
                            if isinstance(data__actions_item__path, str):
                                data__actions_item__path_len = len(data__actions_item__path)
                                if data__actions_item__path_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}].path" + " must be longer than or equal to 1 characters", value=data__actions_item__path, name="" + (name_prefix or "data") + f".actions[{data__actions_x}].path" + "", definition=None, rule='minLength')
                        if data__actions_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".actions[{data__actions_x}]" + " must not contain "+str(data__actions_item_keys)+" properties", value=data__actions_item, name="" + (name_prefix or "data") + f".actions[{data__actions_x}]" + "", definition=None, rule='additionalProperties')
        if "resources" in data_keys:
            data_keys.remove("resources")
            data__resources = data["resources"]
            if not isinstance(data__resources, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must be array", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='type')
            data__resources_is_list = isinstance(data__resources, (list, tuple))
            if data__resources_is_list:
                data__resources_len = len(data__resources)
                for data__resources_x, data__resources_item in enumerate(data__resources):
                    if not isinstance(data__resources_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}]" + " must be object", value=data__resources_item, name="" + (name_prefix or "data") + f".resources[{data__resources_x}]" + "", definition=None, rule='type')
                    data__resources_item_is_dict = isinstance(data__resources_item, dict)
                    if data__resources_item_is_dict:
                        data__resources_item__missing_keys = set(['id', 'kind', 'dynamic', 'path']) - data__resources_item.keys()
                        if data__resources_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}]" + " must contain " + (str(sorted(data__resources_item__missing_keys)) + " properties"), value=data__resources_item, name="" + (name_prefix or "data") + f".resources[{data__resources_x}]" + "", definition=None, rule='required')
                        data__resources_item_keys = set(data__resources_item.keys())
                        if "id" in data__resources_item_keys:
                            data__resources_item_keys.remove("id")
                            data__resources_item__id = data__resources_item["id"]
                            if not isinstance(data__resources_item__id, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].id" + " must be string", value=data__resources_item__id, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].id" + "", definition=None, rule='type')
                            if isinstance(data__resources_item__id, str):
                                data__resources_item__id_len = len(data__resources_item__id)
                                if data__resources_item__id_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].id" + " must be longer than or equal to 1 characters", value=data__resources_item__id, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].id" + "", definition=None, rule='minLength')
                        if "kind" in data__resources_item_keys:
                            data__resources_item_keys.remove("kind")
                            data__resources_item__kind = data__resources_item["kind"]
                            if not (isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'procedure' or isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'diagnostic' or isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'template' or isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'schema' or isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'skill' or isinstance(data__resources_item__kind, str) and data__resources_item__kind == 'context-view'):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].kind" + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data__resources_item__kind, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].kind" + "", definition=None, rule='enum')
                        if "dynamic" in data__resources_item_keys:
                            data__resources_item_keys.remove("dynamic")
                            data__resources_item__dynamic = data__resources_item["dynamic"]
                            if not isinstance(data__resources_item__dynamic, (bool)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].dynamic" + " must be boolean", value=data__resources_item__dynamic, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].dynamic" + "", definition=None, rule='type')
                        if "path" in data__resources_item_keys:
                            data__resources_item_keys.remove("path")
                            data__resources_item__path = data__resources_item["path"]
                            if not isinstance(data__resources_item__path, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].path" + " must be string", value=data__resources_item__path, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].path" + "", definition=None, rule='type')
                            if isinstance(data__resources_item__path, str):
                                data__resources_item__path_len = len(data__resources_item__path)
                                if data__resources_item__path_len < 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}].path" + " must be longer than or equal to 1 characters", value=data__resources_item__path, name="" + (name_prefix or "data") + f".resources[{data__resources_x}].path" + "", definition=None, rule='minLength')
                        if data__resources_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".resources[{data__resources_x}]" + " must not contain "+str(data__resources_item_keys)+" properties", value=data__resources_item, name="" + (name_prefix or "data") + f".resources[{data__resources_x}]" + "", definition=None, rule='additionalProperties')
        if "codes" in data_keys:
            data_keys.remove("codes")
            data__codes = data["codes"]
            if not isinstance(data__codes, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".codes must be array", value=data__codes, name="" + (name_prefix or "data") + ".codes", definition=None, rule='type')
            data__codes_is_list = isinstance(data__codes, (list, tuple))
            if data__codes_is_list:
                data__codes_len = len(data__codes)
                for data__codes_x, data__codes_item in enumerate(data__codes):
                    _inspect__definitions_code(data__codes_item, custom_formats, (name_prefix or "data") + f".codes[{data__codes_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _inspect__definitions_code(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    try:
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data_keys = set(data.keys())
            if "kind" in data_keys:
                data_keys.remove("kind")
                data__kind = data["kind"]
                if not (isinstance(data__kind, str) and data__kind == 'route-reason'):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: route-reason", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
    except (JsonSchemaValueException, JsonSchemaValuesException):
        pass
    else:
        try:
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['severity']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
        else:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must NOT match a disallowed definition", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='not')
        data_is_dict = isinstance(data, dict)
        if data_is_dict:
            data_keys = set(data.keys())
            if "code" in data_keys:
                data_keys.remove("code")
                data__code = data["code"]
                if not isinstance(data__code, (str)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
                if isinstance(data__code, str):
                    if not REGEX_PATTERNS['^route\\.'].search(data__code):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must match pattern ^route\\.", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='pattern')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'kind', 'summary']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            _inspect__definitions_identifier(data__code, custom_formats, (name_prefix or "data") + ".code")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'route-reason' or isinstance(data__kind, str) and data__kind == 'diagnostic'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['route-reason', 'diagnostic']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "summary" in data_keys:
            data_keys.remove("summary")
            data__summary = data["summary"]
            if not isinstance(data__summary, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be string", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='type')
            if isinstance(data__summary, str):
                data__summary_len = len(data__summary)
                if data__summary_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be longer than or equal to 1 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='minLength')
                if data__summary_len > 160:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".summary must be shorter than or equal to 160 characters", value=data__summary, name="" + (name_prefix or "data") + ".summary", definition=None, rule='maxLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _inspect__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "document" in data_keys:
            data_keys.remove("document")
            data__document = data["document"]
            _inspect__definitions_relativepath(data__document, custom_formats, (name_prefix or "data") + ".document")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _inspect__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _inspect__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _inspect__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _inspect__definitions_count(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (int)) and not (isinstance(data, float) and data.is_integer()) or isinstance(data, bool):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be integer", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, (int, float, Decimal)) and not isinstance(data, bool):
        if data < 0:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be bigger than or equal to 0", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minimum')
    return data


# ---------------------------------------------------------------------- provider.schema.json

def validate_provider(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'version', 'graphs']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.provider.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.provider.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _provider__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "version" in data_keys:
            data_keys.remove("version")
            data__version = data["version"]
            if not isinstance(data__version, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must be string", value=data__version, name="" + (name_prefix or "data") + ".version", definition=None, rule='type')
            if isinstance(data__version, str):
                if not REGEX_PATTERNS['^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?$'].search(data__version):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".version must match pattern ^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-[0-9A-Za-z.-]+)?$", value=data__version, name="" + (name_prefix or "data") + ".version", definition=None, rule='pattern')
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='type')
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be longer than or equal to 1 characters", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='minLength')
                if data__name_len > 120:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be shorter than or equal to 120 characters", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='maxLength')
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if "graphs" in data_keys:
            data_keys.remove("graphs")
            data__graphs = data["graphs"]
            if not isinstance(data__graphs, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphs must be array", value=data__graphs, name="" + (name_prefix or "data") + ".graphs", definition=None, rule='type')
            data__graphs_is_list = isinstance(data__graphs, (list, tuple))
            if data__graphs_is_list:
                data__graphs_len = len(data__graphs)
                if data__graphs_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphs must contain at least 1 items", value=data__graphs, name="" + (name_prefix or "data") + ".graphs", definition=None, rule='minItems')
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                if data__graphs_len > len(set(fn(data__graphs_x) for data__graphs_x in data__graphs)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graphs must contain unique items", value=data__graphs, name="" + (name_prefix or "data") + ".graphs", definition=None, rule='uniqueItems')
                for data__graphs_x, data__graphs_item in enumerate(data__graphs):
                    _provider__definitions_relativepath(data__graphs_item, custom_formats, (name_prefix or "data") + f".graphs[{data__graphs_x}]")
        if "catalogs" in data_keys:
            data_keys.remove("catalogs")
            data__catalogs = data["catalogs"]
            if not isinstance(data__catalogs, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".catalogs must be object", value=data__catalogs, name="" + (name_prefix or "data") + ".catalogs", definition=None, rule='type')
            data__catalogs_is_dict = isinstance(data__catalogs, dict)
            if data__catalogs_is_dict:
                data__catalogs_keys = set(data__catalogs.keys())
                if "codes" in data__catalogs_keys:
                    data__catalogs_keys.remove("codes")
                    data__catalogs__codes = data__catalogs["codes"]
                    _provider__definitions_relativepath(data__catalogs__codes, custom_formats, (name_prefix or "data") + ".catalogs.codes")
                if data__catalogs_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".catalogs must not contain "+str(data__catalogs_keys)+" properties", value=data__catalogs, name="" + (name_prefix or "data") + ".catalogs", definition=None, rule='additionalProperties')
        if "compatibility" in data_keys:
            data_keys.remove("compatibility")
            data__compatibility = data["compatibility"]
            if not isinstance(data__compatibility, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility must be object", value=data__compatibility, name="" + (name_prefix or "data") + ".compatibility", definition=None, rule='type')
            data__compatibility_is_dict = isinstance(data__compatibility, dict)
            if data__compatibility_is_dict:
                data__compatibility_keys = set(data__compatibility.keys())
                if "agentGraph" in data__compatibility_keys:
                    data__compatibility_keys.remove("agentGraph")
                    data__compatibility__agentGraph = data__compatibility["agentGraph"]
                    if not isinstance(data__compatibility__agentGraph, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility.agentGraph must be string", value=data__compatibility__agentGraph, name="" + (name_prefix or "data") + ".compatibility.agentGraph", definition=None, rule='type')
                    if isinstance(data__compatibility__agentGraph, str):
                        data__compatibility__agentGraph_len = len(data__compatibility__agentGraph)
                        if data__compatibility__agentGraph_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility.agentGraph must be longer than or equal to 1 characters", value=data__compatibility__agentGraph, name="" + (name_prefix or "data") + ".compatibility.agentGraph", definition=None, rule='minLength')
                if "node" in data__compatibility_keys:
                    data__compatibility_keys.remove("node")
                    data__compatibility__node = data__compatibility["node"]
                    if not isinstance(data__compatibility__node, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility.node must be string", value=data__compatibility__node, name="" + (name_prefix or "data") + ".compatibility.node", definition=None, rule='type')
                    if isinstance(data__compatibility__node, str):
                        data__compatibility__node_len = len(data__compatibility__node)
                        if data__compatibility__node_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility.node must be longer than or equal to 1 characters", value=data__compatibility__node, name="" + (name_prefix or "data") + ".compatibility.node", definition=None, rule='minLength')
                if data__compatibility_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".compatibility must not contain "+str(data__compatibility_keys)+" properties", value=data__compatibility, name="" + (name_prefix or "data") + ".compatibility", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _provider__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _provider__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- resource.schema.json

def validate_resource(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            _resource__definitions_fileresource(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _resource__definitions_graphactionresource(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _resource__definitions_hostactionresource(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.file.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource.graph-action.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be one of ['agent-graph.resource.file.v1', 'agent-graph.resource.graph-action.v1', 'agent-graph.resource.host-action.v1']", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='enum')
    return data

def _resource__definitions_hostactionresource(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materializer', 'input']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.host-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'procedure' or isinstance(data__kind, str) and data__kind == 'diagnostic' or isinstance(data__kind, str) and data__kind == 'template' or isinstance(data__kind, str) and data__kind == 'schema' or isinstance(data__kind, str) and data__kind == 'skill' or isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "materializer" in data_keys:
            data_keys.remove("materializer")
            data__materializer = data["materializer"]
            _resource__definitions_relativepath(data__materializer, custom_formats, (name_prefix or "data") + ".materializer")
        if "input" in data_keys:
            data_keys.remove("input")
            data__input = data["input"]
            if not isinstance(data__input, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must be object", value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='type')
            data__input_is_dict = isinstance(data__input, dict)
            if data__input_is_dict:
                data__input__missing_keys = set(['schema', 'value']) - data__input.keys()
                if data__input__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must contain " + (str(sorted(data__input__missing_keys)) + " properties"), value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='required')
                data__input_keys = set(data__input.keys())
                if "schema" in data__input_keys:
                    data__input_keys.remove("schema")
                    data__input__schema = data__input["schema"]
                    _resource__definitions_protocolidentity(data__input__schema, custom_formats, (name_prefix or "data") + ".input.schema")
                if "value" in data__input_keys:
                    data__input_keys.remove("value")
                    data__input__value = data__input["value"]
                if data__input_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must not contain "+str(data__input_keys)+" properties", value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='additionalProperties')
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource__definitions_graphactionresource(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materializer']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.graph-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.graph-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: context-view", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "materializer" in data_keys:
            data_keys.remove("materializer")
            data__materializer = data["materializer"]
            _resource__definitions_relativepath(data__materializer, custom_formats, (name_prefix or "data") + ".materializer")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource__definitions_fileresource(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'path']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'procedure' or isinstance(data__kind, str) and data__kind == 'diagnostic' or isinstance(data__kind, str) and data__kind == 'template' or isinstance(data__kind, str) and data__kind == 'schema' or isinstance(data__kind, str) and data__kind == 'skill'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            _resource__definitions_relativepath(data__path, custom_formats, (name_prefix or "data") + ".path")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data


# ---------------------------------------------------------------------- resource-file.schema.json

def validate_resource_file(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'path']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource_file__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'procedure' or isinstance(data__kind, str) and data__kind == 'diagnostic' or isinstance(data__kind, str) and data__kind == 'template' or isinstance(data__kind, str) and data__kind == 'schema' or isinstance(data__kind, str) and data__kind == 'skill'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            _resource_file__definitions_relativepath(data__path, custom_formats, (name_prefix or "data") + ".path")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_file__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_file__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- resource-graph-action.schema.json

def validate_resource_graph_action(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materializer']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.graph-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.graph-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource_graph_action__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: context-view", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "materializer" in data_keys:
            data_keys.remove("materializer")
            data__materializer = data["materializer"]
            _resource_graph_action__definitions_relativepath(data__materializer, custom_formats, (name_prefix or "data") + ".materializer")
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_graph_action__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_graph_action__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- resource-host-action.schema.json

def validate_resource_host_action(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materializer', 'input']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource.host-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            _resource_host_action__definitions_identifier(data__id, custom_formats, (name_prefix or "data") + ".id")
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'procedure' or isinstance(data__kind, str) and data__kind == 'diagnostic' or isinstance(data__kind, str) and data__kind == 'template' or isinstance(data__kind, str) and data__kind == 'schema' or isinstance(data__kind, str) and data__kind == 'skill' or isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='enum')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "materializer" in data_keys:
            data_keys.remove("materializer")
            data__materializer = data["materializer"]
            _resource_host_action__definitions_relativepath(data__materializer, custom_formats, (name_prefix or "data") + ".materializer")
        if "input" in data_keys:
            data_keys.remove("input")
            data__input = data["input"]
            if not isinstance(data__input, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must be object", value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='type')
            data__input_is_dict = isinstance(data__input, dict)
            if data__input_is_dict:
                data__input__missing_keys = set(['schema', 'value']) - data__input.keys()
                if data__input__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must contain " + (str(sorted(data__input__missing_keys)) + " properties"), value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='required')
                data__input_keys = set(data__input.keys())
                if "schema" in data__input_keys:
                    data__input_keys.remove("schema")
                    data__input__schema = data__input["schema"]
                    _resource_host_action__definitions_protocolidentity(data__input__schema, custom_formats, (name_prefix or "data") + ".input.schema")
                if "value" in data__input_keys:
                    data__input_keys.remove("value")
                    data__input__value = data__input["value"]
                if data__input_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".input must not contain "+str(data__input_keys)+" properties", value=data__input, name="" + (name_prefix or "data") + ".input", definition=None, rule='additionalProperties')
        if "description" in data_keys:
            data_keys.remove("description")
            data__description = data["description"]
            if not isinstance(data__description, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be string", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='type')
            if isinstance(data__description, str):
                data__description_len = len(data__description)
                if data__description_len > 1000:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".description must be shorter than or equal to 1000 characters", value=data__description, name="" + (name_prefix or "data") + ".description", definition=None, rule='maxLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_host_action__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_host_action__definitions_relativepath(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
        if not REGEX_PATTERNS['^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^(?!/|[A-Za-z]:|.*(?:^|/)\\.\\.(?:/|$))", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_host_action__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- resource-location.schema.json

def validate_resource_location(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            _resource_location__definitions_filelocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _resource_location__definitions_graphactionlocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _resource_location__definitions_hostactionlocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.graph-action.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be one of ['agent-graph.resource-location.file.v1', 'agent-graph.resource-location.graph-action.v1', 'agent-graph.resource-location.host-action.v1']", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='enum')
    return data

def _resource_location__definitions_hostactionlocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.host-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _resource_location__definitions_resourcekind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _resource_location__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['handler', 'input', 'output_schema']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "handler" in data__materialize_keys:
                    data__materialize_keys.remove("handler")
                    data__materialize__handler = data__materialize["handler"]
                    if not isinstance(data__materialize__handler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be string", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='type')
                    if isinstance(data__materialize__handler, str):
                        data__materialize__handler_len = len(data__materialize__handler)
                        if data__materialize__handler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be longer than or equal to 1 characters", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='minLength')
                if "input" in data__materialize_keys:
                    data__materialize_keys.remove("input")
                    data__materialize__input = data__materialize["input"]
                    _resource_location__definitions_protocolinput(data__materialize__input, custom_formats, (name_prefix or "data") + ".materialize.input")
                if "output_schema" in data__materialize_keys:
                    data__materialize_keys.remove("output_schema")
                    data__materialize__outputschema = data__materialize["output_schema"]
                    _resource_location__definitions_protocolidentity(data__materialize__outputschema, custom_formats, (name_prefix or "data") + ".materialize.output_schema")
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _resource_location__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_location__definitions_protocolinput(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'value']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            _resource_location__definitions_protocolidentity(data__schema, custom_formats, (name_prefix or "data") + ".schema")
        if "value" in data_keys:
            data_keys.remove("value")
            data__value = data["value"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_location__definitions_resourcekind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill' or isinstance(data, str) and data == 'context-view'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _resource_location__definitions_graphactionlocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        if "digest" in data:
            if "filePath" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency filePath for digest", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        if "filePath" in data:
            if "digest" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency digest for filePath", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.graph-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.graph-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: context-view", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _resource_location__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['resourceId']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "resourceId" in data__materialize_keys:
                    data__materialize_keys.remove("resourceId")
                    data__materialize__resourceId = data__materialize["resourceId"]
                    if not isinstance(data__materialize__resourceId, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be string", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='type')
                    if isinstance(data__materialize__resourceId, str):
                        data__materialize__resourceId_len = len(data__materialize__resourceId)
                        if data__materialize__resourceId_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be longer than or equal to 1 characters", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='minLength')
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _resource_location__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location__definitions_filelocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'digest', 'filePath']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _resource_location__definitions_statickind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _resource_location__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location__definitions_statickind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- resource-location-file.schema.json

def validate_resource_location_file(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'digest', 'filePath']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _resource_location_file__definitions_statickind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _resource_location_file__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location_file__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location_file__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _resource_location_file__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_location_file__definitions_statickind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- resource-location-graph-action.schema.json

def validate_resource_location_graph_action(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        if "digest" in data:
            if "filePath" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency filePath for digest", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        if "filePath" in data:
            if "digest" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency digest for filePath", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.graph-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.graph-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: context-view", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _resource_location_graph_action__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['resourceId']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "resourceId" in data__materialize_keys:
                    data__materialize_keys.remove("resourceId")
                    data__materialize__resourceId = data__materialize["resourceId"]
                    if not isinstance(data__materialize__resourceId, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be string", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='type')
                    if isinstance(data__materialize__resourceId, str):
                        data__materialize__resourceId_len = len(data__materialize__resourceId)
                        if data__materialize__resourceId_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be longer than or equal to 1 characters", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='minLength')
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _resource_location_graph_action__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location_graph_action__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location_graph_action__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _resource_location_graph_action__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- resource-location-host-action.schema.json

def validate_resource_location_host_action(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.host-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _resource_location_host_action__definitions_resourcekind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _resource_location_host_action__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['handler', 'input', 'output_schema']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "handler" in data__materialize_keys:
                    data__materialize_keys.remove("handler")
                    data__materialize__handler = data__materialize["handler"]
                    if not isinstance(data__materialize__handler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be string", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='type')
                    if isinstance(data__materialize__handler, str):
                        data__materialize__handler_len = len(data__materialize__handler)
                        if data__materialize__handler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be longer than or equal to 1 characters", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='minLength')
                if "input" in data__materialize_keys:
                    data__materialize_keys.remove("input")
                    data__materialize__input = data__materialize["input"]
                    _resource_location_host_action__definitions_protocolinput(data__materialize__input, custom_formats, (name_prefix or "data") + ".materialize.input")
                if "output_schema" in data__materialize_keys:
                    data__materialize_keys.remove("output_schema")
                    data__materialize__outputschema = data__materialize["output_schema"]
                    _resource_location_host_action__definitions_protocolidentity(data__materialize__outputschema, custom_formats, (name_prefix or "data") + ".materialize.output_schema")
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _resource_location_host_action__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location_host_action__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _resource_location_host_action__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_location_host_action__definitions_protocolinput(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'value']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            _resource_location_host_action__definitions_protocolidentity(data__schema, custom_formats, (name_prefix or "data") + ".schema")
        if "value" in data_keys:
            data_keys.remove("value")
            data__value = data["value"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_location_host_action__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_location_host_action__definitions_resourcekind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill' or isinstance(data, str) and data == 'context-view'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- resource-read-receipts.schema.json

def validate_resource_read_receipts(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'receipts']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-read-receipts.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-read-receipts.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            _resource_read_receipts__definitions_identifier(data__provider, custom_formats, (name_prefix or "data") + ".provider")
        if "receipts" in data_keys:
            data_keys.remove("receipts")
            data__receipts = data["receipts"]
            if not isinstance(data__receipts, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".receipts must be array", value=data__receipts, name="" + (name_prefix or "data") + ".receipts", definition=None, rule='type')
            data__receipts_is_list = isinstance(data__receipts, (list, tuple))
            if data__receipts_is_list:
                data__receipts_len = len(data__receipts)
                for data__receipts_x, data__receipts_item in enumerate(data__receipts):
                    if not isinstance(data__receipts_item, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + " must be object", value=data__receipts_item, name="" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + "", definition=None, rule='type')
                    data__receipts_item_is_dict = isinstance(data__receipts_item, dict)
                    if data__receipts_item_is_dict:
                        data__receipts_item__missing_keys = set(['id', 'digest']) - data__receipts_item.keys()
                        if data__receipts_item__missing_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + " must contain " + (str(sorted(data__receipts_item__missing_keys)) + " properties"), value=data__receipts_item, name="" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + "", definition=None, rule='required')
                        data__receipts_item_keys = set(data__receipts_item.keys())
                        if "id" in data__receipts_item_keys:
                            data__receipts_item_keys.remove("id")
                            data__receipts_item__id = data__receipts_item["id"]
                            _resource_read_receipts__definitions_identifier(data__receipts_item__id, custom_formats, (name_prefix or "data") + f".receipts[{data__receipts_x}].id")
                        if "digest" in data__receipts_item_keys:
                            data__receipts_item_keys.remove("digest")
                            data__receipts_item__digest = data__receipts_item["digest"]
                            _resource_read_receipts__definitions_digest(data__receipts_item__digest, custom_formats, (name_prefix or "data") + f".receipts[{data__receipts_x}].digest")
                        if "revision" in data__receipts_item_keys:
                            data__receipts_item_keys.remove("revision")
                            data__receipts_item__revision = data__receipts_item["revision"]
                            _resource_read_receipts__definitions_digest(data__receipts_item__revision, custom_formats, (name_prefix or "data") + f".receipts[{data__receipts_x}].revision")
                        if data__receipts_item_keys:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + " must not contain "+str(data__receipts_item_keys)+" properties", value=data__receipts_item, name="" + (name_prefix or "data") + f".receipts[{data__receipts_x}]" + "", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _resource_read_receipts__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _resource_read_receipts__definitions_identifier(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- route.schema.json

def validate_route(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'provider', 'revision', 'routeId', 'graph', 'node', 'statusCode', 'reasonCode', 'availability', 'callPath', 'commandPlan', 'resources', 'diagnostics', 'afterAction']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.route.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.route.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be string", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be longer than or equal to 1 characters", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _route__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "routeId" in data_keys:
            data_keys.remove("routeId")
            data__routeId = data["routeId"]
            if not isinstance(data__routeId, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".routeId must be string", value=data__routeId, name="" + (name_prefix or "data") + ".routeId", definition=None, rule='type')
            if isinstance(data__routeId, str):
                if not REGEX_PATTERNS['^route:[a-f0-9]{20}$'].search(data__routeId):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".routeId must match pattern ^route:[a-f0-9]{20}$", value=data__routeId, name="" + (name_prefix or "data") + ".routeId", definition=None, rule='pattern')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "node" in data_keys:
            data_keys.remove("node")
            data__node = data["node"]
            if not isinstance(data__node, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".node must be string", value=data__node, name="" + (name_prefix or "data") + ".node", definition=None, rule='type')
            if isinstance(data__node, str):
                data__node_len = len(data__node)
                if data__node_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".node must be longer than or equal to 1 characters", value=data__node, name="" + (name_prefix or "data") + ".node", definition=None, rule='minLength')
        if "statusCode" in data_keys:
            data_keys.remove("statusCode")
            data__statusCode = data["statusCode"]
            _route__definitions_statuscode(data__statusCode, custom_formats, (name_prefix or "data") + ".statusCode")
        if "reasonCode" in data_keys:
            data_keys.remove("reasonCode")
            data__reasonCode = data["reasonCode"]
            _route__definitions_reasoncode(data__reasonCode, custom_formats, (name_prefix or "data") + ".reasonCode")
        if "hint" in data_keys:
            data_keys.remove("hint")
            data__hint = data["hint"]
            if not isinstance(data__hint, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".hint must be string", value=data__hint, name="" + (name_prefix or "data") + ".hint", definition=None, rule='type')
            if isinstance(data__hint, str):
                data__hint_len = len(data__hint)
                if data__hint_len > 160:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".hint must be shorter than or equal to 160 characters", value=data__hint, name="" + (name_prefix or "data") + ".hint", definition=None, rule='maxLength')
        if "availability" in data_keys:
            data_keys.remove("availability")
            data__availability = data["availability"]
            _route__definitions_availability(data__availability, custom_formats, (name_prefix or "data") + ".availability")
        if "callPath" in data_keys:
            data_keys.remove("callPath")
            data__callPath = data["callPath"]
            if not isinstance(data__callPath, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".callPath must be array", value=data__callPath, name="" + (name_prefix or "data") + ".callPath", definition=None, rule='type')
            data__callPath_is_list = isinstance(data__callPath, (list, tuple))
            if data__callPath_is_list:
                data__callPath_len = len(data__callPath)
                for data__callPath_x, data__callPath_item in enumerate(data__callPath):
                    if not isinstance(data__callPath_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".callPath[{data__callPath_x}]" + " must be string", value=data__callPath_item, name="" + (name_prefix or "data") + f".callPath[{data__callPath_x}]" + "", definition=None, rule='type')
        if "action" in data_keys:
            data_keys.remove("action")
            data__action = data["action"]
            _route__definitions_routeaction(data__action, custom_formats, (name_prefix or "data") + ".action")
        if "commandPlan" in data_keys:
            data_keys.remove("commandPlan")
            data__commandPlan = data["commandPlan"]
            _route__definitions_commandplan(data__commandPlan, custom_formats, (name_prefix or "data") + ".commandPlan")
        if "resources" in data_keys:
            data_keys.remove("resources")
            data__resources = data["resources"]
            if not isinstance(data__resources, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must be object", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='type')
            data__resources_is_dict = isinstance(data__resources, dict)
            if data__resources_is_dict:
                data__resources__missing_keys = set(['required', 'recommended']) - data__resources.keys()
                if data__resources__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must contain " + (str(sorted(data__resources__missing_keys)) + " properties"), value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='required')
                data__resources_keys = set(data__resources.keys())
                if "required" in data__resources_keys:
                    data__resources_keys.remove("required")
                    data__resources__required = data__resources["required"]
                    if not isinstance(data__resources__required, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources.required must be array", value=data__resources__required, name="" + (name_prefix or "data") + ".resources.required", definition=None, rule='type')
                    data__resources__required_is_list = isinstance(data__resources__required, (list, tuple))
                    if data__resources__required_is_list:
                        data__resources__required_len = len(data__resources__required)
                        for data__resources__required_x, data__resources__required_item in enumerate(data__resources__required):
                            _route__definitions_resourcelocation(data__resources__required_item, custom_formats, (name_prefix or "data") + f".resources.required[{data__resources__required_x}]")
                if "recommended" in data__resources_keys:
                    data__resources_keys.remove("recommended")
                    data__resources__recommended = data__resources["recommended"]
                    if not isinstance(data__resources__recommended, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources.recommended must be array", value=data__resources__recommended, name="" + (name_prefix or "data") + ".resources.recommended", definition=None, rule='type')
                    data__resources__recommended_is_list = isinstance(data__resources__recommended, (list, tuple))
                    if data__resources__recommended_is_list:
                        data__resources__recommended_len = len(data__resources__recommended)
                        for data__resources__recommended_x, data__resources__recommended_item in enumerate(data__resources__recommended):
                            _route__definitions_resourcelocation(data__resources__recommended_item, custom_formats, (name_prefix or "data") + f".resources.recommended[{data__resources__recommended_x}]")
                if data__resources_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".resources must not contain "+str(data__resources_keys)+" properties", value=data__resources, name="" + (name_prefix or "data") + ".resources", definition=None, rule='additionalProperties')
        if "gate" in data_keys:
            data_keys.remove("gate")
            data__gate = data["gate"]
            if not isinstance(data__gate, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must be object", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='type')
            data__gate_is_dict = isinstance(data__gate, dict)
            if data__gate_is_dict:
                data__gate__missing_keys = set(['id', 'prompt', 'resolution']) - data__gate.keys()
                if data__gate__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must contain " + (str(sorted(data__gate__missing_keys)) + " properties"), value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='required')
                data__gate_keys = set(data__gate.keys())
                if "id" in data__gate_keys:
                    data__gate_keys.remove("id")
                    data__gate__id = data__gate["id"]
                    if not isinstance(data__gate__id, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.id must be string", value=data__gate__id, name="" + (name_prefix or "data") + ".gate.id", definition=None, rule='type')
                    if isinstance(data__gate__id, str):
                        data__gate__id_len = len(data__gate__id)
                        if data__gate__id_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.id must be longer than or equal to 1 characters", value=data__gate__id, name="" + (name_prefix or "data") + ".gate.id", definition=None, rule='minLength')
                if "prompt" in data__gate_keys:
                    data__gate_keys.remove("prompt")
                    data__gate__prompt = data__gate["prompt"]
                    if not isinstance(data__gate__prompt, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.prompt must be string", value=data__gate__prompt, name="" + (name_prefix or "data") + ".gate.prompt", definition=None, rule='type')
                    if isinstance(data__gate__prompt, str):
                        data__gate__prompt_len = len(data__gate__prompt)
                        if data__gate__prompt_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.prompt must be longer than or equal to 1 characters", value=data__gate__prompt, name="" + (name_prefix or "data") + ".gate.prompt", definition=None, rule='minLength')
                if "authority" in data__gate_keys:
                    data__gate_keys.remove("authority")
                    data__gate__authority = data__gate["authority"]
                    if not isinstance(data__gate__authority, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.authority must be string", value=data__gate__authority, name="" + (name_prefix or "data") + ".gate.authority", definition=None, rule='type')
                    if isinstance(data__gate__authority, str):
                        data__gate__authority_len = len(data__gate__authority)
                        if data__gate__authority_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.authority must be longer than or equal to 1 characters", value=data__gate__authority, name="" + (name_prefix or "data") + ".gate.authority", definition=None, rule='minLength')
                if "delegatable" in data__gate_keys:
                    data__gate_keys.remove("delegatable")
                    data__gate__delegatable = data__gate["delegatable"]
                    if not isinstance(data__gate__delegatable, (bool)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.delegatable must be boolean", value=data__gate__delegatable, name="" + (name_prefix or "data") + ".gate.delegatable", definition=None, rule='type')
                if "resolution" in data__gate_keys:
                    data__gate_keys.remove("resolution")
                    data__gate__resolution = data__gate["resolution"]
                    if not (isinstance(data__gate__resolution, str) and data__gate__resolution == 'user' or isinstance(data__gate__resolution, str) and data__gate__resolution == 'session-authority'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate.resolution must be one of ['user', 'session-authority']", value=data__gate__resolution, name="" + (name_prefix or "data") + ".gate.resolution", definition=None, rule='enum')
                if "inspectionAction" in data__gate_keys:
                    data__gate_keys.remove("inspectionAction")
                    data__gate__inspectionAction = data__gate["inspectionAction"]
                    _route__definitions_gateaction(data__gate__inspectionAction, custom_formats, (name_prefix or "data") + ".gate.inspectionAction")
                if "resolutionAction" in data__gate_keys:
                    data__gate_keys.remove("resolutionAction")
                    data__gate__resolutionAction = data__gate["resolutionAction"]
                    _route__definitions_gateaction(data__gate__resolutionAction, custom_formats, (name_prefix or "data") + ".gate.resolutionAction")
                if data__gate_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".gate must not contain "+str(data__gate_keys)+" properties", value=data__gate, name="" + (name_prefix or "data") + ".gate", definition=None, rule='additionalProperties')
        if "diagnostics" in data_keys:
            data_keys.remove("diagnostics")
            data__diagnostics = data["diagnostics"]
            if not isinstance(data__diagnostics, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".diagnostics must be array", value=data__diagnostics, name="" + (name_prefix or "data") + ".diagnostics", definition=None, rule='type')
            data__diagnostics_is_list = isinstance(data__diagnostics, (list, tuple))
            if data__diagnostics_is_list:
                data__diagnostics_len = len(data__diagnostics)
                for data__diagnostics_x, data__diagnostics_item in enumerate(data__diagnostics):
                    _route__definitions_diagnostic(data__diagnostics_item, custom_formats, (name_prefix or "data") + f".diagnostics[{data__diagnostics_x}]")
        if "afterAction" in data_keys:
            data_keys.remove("afterAction")
            data__afterAction = data["afterAction"]
            if not isinstance(data__afterAction, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction must be object", value=data__afterAction, name="" + (name_prefix or "data") + ".afterAction", definition=None, rule='type')
            data__afterAction_is_dict = isinstance(data__afterAction, dict)
            if data__afterAction_is_dict:
                data__afterAction__missing_keys = set(['evaluate']) - data__afterAction.keys()
                if data__afterAction__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction must contain " + (str(sorted(data__afterAction__missing_keys)) + " properties"), value=data__afterAction, name="" + (name_prefix or "data") + ".afterAction", definition=None, rule='required')
                data__afterAction_keys = set(data__afterAction.keys())
                if "evaluate" in data__afterAction_keys:
                    data__afterAction_keys.remove("evaluate")
                    data__afterAction__evaluate = data__afterAction["evaluate"]
                    if not (isinstance(data__afterAction__evaluate, bool) and data__afterAction__evaluate is True):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction.evaluate must be same as const definition: True", value=data__afterAction__evaluate, name="" + (name_prefix or "data") + ".afterAction.evaluate", definition=None, rule='const')
                if "recordNode" in data__afterAction_keys:
                    data__afterAction_keys.remove("recordNode")
                    data__afterAction__recordNode = data__afterAction["recordNode"]
                    if not isinstance(data__afterAction__recordNode, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction.recordNode must be string", value=data__afterAction__recordNode, name="" + (name_prefix or "data") + ".afterAction.recordNode", definition=None, rule='type')
                    if isinstance(data__afterAction__recordNode, str):
                        data__afterAction__recordNode_len = len(data__afterAction__recordNode)
                        if data__afterAction__recordNode_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction.recordNode must be longer than or equal to 1 characters", value=data__afterAction__recordNode, name="" + (name_prefix or "data") + ".afterAction.recordNode", definition=None, rule='minLength')
                if data__afterAction_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".afterAction must not contain "+str(data__afterAction_keys)+" properties", value=data__afterAction, name="" + (name_prefix or "data") + ".afterAction", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_diagnostic(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['code', 'severity', 'message']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "code" in data_keys:
            data_keys.remove("code")
            data__code = data["code"]
            if not isinstance(data__code, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be string", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='type')
            if isinstance(data__code, str):
                data__code_len = len(data__code)
                if data__code_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".code must be longer than or equal to 1 characters", value=data__code, name="" + (name_prefix or "data") + ".code", definition=None, rule='minLength')
        if "severity" in data_keys:
            data_keys.remove("severity")
            data__severity = data["severity"]
            _route__definitions_severity(data__severity, custom_formats, (name_prefix or "data") + ".severity")
        if "message" in data_keys:
            data_keys.remove("message")
            data__message = data["message"]
            if not isinstance(data__message, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".message must be string", value=data__message, name="" + (name_prefix or "data") + ".message", definition=None, rule='type')
        if "path" in data_keys:
            data_keys.remove("path")
            data__path = data["path"]
            if not isinstance(data__path, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".path must be string", value=data__path, name="" + (name_prefix or "data") + ".path", definition=None, rule='type')
        if "documentRef" in data_keys:
            data_keys.remove("documentRef")
            data__documentRef = data["documentRef"]
            if not isinstance(data__documentRef, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be string", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='type')
            if isinstance(data__documentRef, str):
                data__documentRef_len = len(data__documentRef)
                if data__documentRef_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".documentRef must be longer than or equal to 1 characters", value=data__documentRef, name="" + (name_prefix or "data") + ".documentRef", definition=None, rule='minLength')
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_severity(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'info' or isinstance(data, str) and data == 'warning' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['info', 'warning', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_gateaction(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['action', 'commandPlan']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "action" in data_keys:
            data_keys.remove("action")
            data__action = data["action"]
            _route__definitions_routeaction(data__action, custom_formats, (name_prefix or "data") + ".action")
        if "commandPlan" in data_keys:
            data_keys.remove("commandPlan")
            data__commandPlan = data["commandPlan"]
            _route__definitions_commandplan(data__commandPlan, custom_formats, (name_prefix or "data") + ".commandPlan")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_resourcelocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            _route__definitions_filelocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _route__definitions_graphactionlocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            _route__definitions_hostactionlocation(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.graph-action.v1' or isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be one of ['agent-graph.resource-location.file.v1', 'agent-graph.resource-location.graph-action.v1', 'agent-graph.resource-location.host-action.v1']", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='enum')
    return data

def _route__definitions_hostactionlocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.host-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.host-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _route__definitions_resourcekind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _route__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['handler', 'input', 'output_schema']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "handler" in data__materialize_keys:
                    data__materialize_keys.remove("handler")
                    data__materialize__handler = data__materialize["handler"]
                    if not isinstance(data__materialize__handler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be string", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='type')
                    if isinstance(data__materialize__handler, str):
                        data__materialize__handler_len = len(data__materialize__handler)
                        if data__materialize__handler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.handler must be longer than or equal to 1 characters", value=data__materialize__handler, name="" + (name_prefix or "data") + ".materialize.handler", definition=None, rule='minLength')
                if "input" in data__materialize_keys:
                    data__materialize_keys.remove("input")
                    data__materialize__input = data__materialize["input"]
                    _route__definitions_protocolinput(data__materialize__input, custom_formats, (name_prefix or "data") + ".materialize.input")
                if "output_schema" in data__materialize_keys:
                    data__materialize_keys.remove("output_schema")
                    data__materialize__outputschema = data__materialize["output_schema"]
                    _route__definitions_protocolidentity(data__materialize__outputschema, custom_formats, (name_prefix or "data") + ".materialize.output_schema")
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _route__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_readstate(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read-required' or isinstance(data, str) and data == 'current'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read-required', 'current']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_protocolidentity(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _route__definitions_protocolinput(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'value']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            _route__definitions_protocolidentity(data__schema, custom_formats, (name_prefix or "data") + ".schema")
        if "value" in data_keys:
            data_keys.remove("value")
            data__value = data["value"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_resourcekind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill' or isinstance(data, str) and data == 'context-view'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill', 'context-view']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_graphactionlocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'materialize']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        if "digest" in data:
            if "filePath" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency filePath for digest", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        if "filePath" in data:
            if "digest" not in data:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " missing dependency digest for filePath", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='dependencies')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.graph-action.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.graph-action.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            if not (isinstance(data__kind, str) and data__kind == 'context-view'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".kind must be same as const definition: context-view", value=data__kind, name="" + (name_prefix or "data") + ".kind", definition=None, rule='const')
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "revision" in data_keys:
            data_keys.remove("revision")
            data__revision = data["revision"]
            _route__definitions_digest(data__revision, custom_formats, (name_prefix or "data") + ".revision")
        if "materialize" in data_keys:
            data_keys.remove("materialize")
            data__materialize = data["materialize"]
            if not isinstance(data__materialize, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must be object", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='type')
            data__materialize_is_dict = isinstance(data__materialize, dict)
            if data__materialize_is_dict:
                data__materialize__missing_keys = set(['resourceId']) - data__materialize.keys()
                if data__materialize__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must contain " + (str(sorted(data__materialize__missing_keys)) + " properties"), value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='required')
                data__materialize_keys = set(data__materialize.keys())
                if "resourceId" in data__materialize_keys:
                    data__materialize_keys.remove("resourceId")
                    data__materialize__resourceId = data__materialize["resourceId"]
                    if not isinstance(data__materialize__resourceId, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be string", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='type')
                    if isinstance(data__materialize__resourceId, str):
                        data__materialize__resourceId_len = len(data__materialize__resourceId)
                        if data__materialize__resourceId_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize.resourceId must be longer than or equal to 1 characters", value=data__materialize__resourceId, name="" + (name_prefix or "data") + ".materialize.resourceId", definition=None, rule='minLength')
                if data__materialize_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".materialize must not contain "+str(data__materialize_keys)+" properties", value=data__materialize, name="" + (name_prefix or "data") + ".materialize", definition=None, rule='additionalProperties')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _route__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _route__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_filelocation(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'kind', 'mediaType', 'digest', 'filePath']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.resource-location.file.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.resource-location.file.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "kind" in data_keys:
            data_keys.remove("kind")
            data__kind = data["kind"]
            _route__definitions_statickind(data__kind, custom_formats, (name_prefix or "data") + ".kind")
        if "mediaType" in data_keys:
            data_keys.remove("mediaType")
            data__mediaType = data["mediaType"]
            if not isinstance(data__mediaType, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be string", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='type')
            if isinstance(data__mediaType, str):
                data__mediaType_len = len(data__mediaType)
                if data__mediaType_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".mediaType must be longer than or equal to 1 characters", value=data__mediaType, name="" + (name_prefix or "data") + ".mediaType", definition=None, rule='minLength')
        if "digest" in data_keys:
            data_keys.remove("digest")
            data__digest = data["digest"]
            _route__definitions_digest(data__digest, custom_formats, (name_prefix or "data") + ".digest")
        if "filePath" in data_keys:
            data_keys.remove("filePath")
            data__filePath = data["filePath"]
            if not isinstance(data__filePath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be string", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='type')
            if isinstance(data__filePath, str):
                data__filePath_len = len(data__filePath)
                if data__filePath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".filePath must be longer than or equal to 1 characters", value=data__filePath, name="" + (name_prefix or "data") + ".filePath", definition=None, rule='minLength')
        if "readState" in data_keys:
            data_keys.remove("readState")
            data__readState = data["readState"]
            _route__definitions_readstate(data__readState, custom_formats, (name_prefix or "data") + ".readState")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_statickind(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'procedure' or isinstance(data, str) and data == 'diagnostic' or isinstance(data, str) and data == 'template' or isinstance(data, str) and data == 'schema' or isinstance(data, str) and data == 'skill'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['procedure', 'diagnostic', 'template', 'schema', 'skill']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_commandplan(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (list, tuple)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_list = isinstance(data, (list, tuple))
    if data_is_list:
        data_len = len(data)
        for data_x, data_item in enumerate(data):
            _route__definitions_planstep(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
    return data

def _route__definitions_planstep(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_one_of_count2 = 0
    if data_one_of_count2 < 2:
        try:
            try:
                data_is_dict = isinstance(data, dict)
                if data_is_dict:
                    data__missing_keys = set(['handler']) - data.keys()
                    if data__missing_keys:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            except (JsonSchemaValueException, JsonSchemaValuesException): pass
            else:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must NOT match a disallowed definition", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='not')
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['command']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_one_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count2 < 2:
        try:
            try:
                data_is_dict = isinstance(data, dict)
                if data_is_dict:
                    data__missing_keys = set(['command']) - data.keys()
                    if data__missing_keys:
                        raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            except (JsonSchemaValueException, JsonSchemaValuesException): pass
            else:
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must NOT match a disallowed definition", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='not')
            data_is_dict = isinstance(data, dict)
            if data_is_dict:
                data__missing_keys = set(['handler']) - data.keys()
                if data__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
            data_one_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count2 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count2) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['effect', 'cwd', 'workingDirectory']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "command" in data_keys:
            data_keys.remove("command")
            data__command = data["command"]
            if not isinstance(data__command, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must be string", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='type')
            if isinstance(data__command, str):
                data__command_len = len(data__command)
                if data__command_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".command must be longer than or equal to 1 characters", value=data__command, name="" + (name_prefix or "data") + ".command", definition=None, rule='minLength')
        if "handler" in data_keys:
            data_keys.remove("handler")
            data__handler = data["handler"]
            if not isinstance(data__handler, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must be string", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='type')
            if isinstance(data__handler, str):
                data__handler_len = len(data__handler)
                if data__handler_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".handler must be longer than or equal to 1 characters", value=data__handler, name="" + (name_prefix or "data") + ".handler", definition=None, rule='minLength')
        if "effect" in data_keys:
            data_keys.remove("effect")
            data__effect = data["effect"]
            _route__definitions_effect(data__effect, custom_formats, (name_prefix or "data") + ".effect")
        if "cwd" in data_keys:
            data_keys.remove("cwd")
            data__cwd = data["cwd"]
            if not (isinstance(data__cwd, str) and data__cwd == 'workspace' or isinstance(data__cwd, str) and data__cwd == 'provider'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".cwd must be one of ['workspace', 'provider']", value=data__cwd, name="" + (name_prefix or "data") + ".cwd", definition=None, rule='enum')
        if "workingDirectory" in data_keys:
            data_keys.remove("workingDirectory")
            data__workingDirectory = data["workingDirectory"]
            if not isinstance(data__workingDirectory, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".workingDirectory must be string", value=data__workingDirectory, name="" + (name_prefix or "data") + ".workingDirectory", definition=None, rule='type')
            if isinstance(data__workingDirectory, str):
                data__workingDirectory_len = len(data__workingDirectory)
                if data__workingDirectory_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".workingDirectory must be longer than or equal to 1 characters", value=data__workingDirectory, name="" + (name_prefix or "data") + ".workingDirectory", definition=None, rule='minLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_effect(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'read' or isinstance(data, str) and data == 'write' or isinstance(data, str) and data == 'external'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['read', 'write', 'external']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_routeaction(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['id', 'runner', 'effect']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "runner" in data_keys:
            data_keys.remove("runner")
            data__runner = data["runner"]
            if not (isinstance(data__runner, str) and data__runner == 'command' or isinstance(data__runner, str) and data__runner == 'script' or isinstance(data__runner, str) and data__runner == 'agent' or isinstance(data__runner, str) and data__runner == 'host'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".runner must be one of ['command', 'script', 'agent', 'host']", value=data__runner, name="" + (name_prefix or "data") + ".runner", definition=None, rule='enum')
        if "effect" in data_keys:
            data_keys.remove("effect")
            data__effect = data["effect"]
            _route__definitions_effect(data__effect, custom_formats, (name_prefix or "data") + ".effect")
        if "skill" in data_keys:
            data_keys.remove("skill")
            data__skill = data["skill"]
            _route__definitions_resourcelocation(data__skill, custom_formats, (name_prefix or "data") + ".skill")
        if "inputSchema" in data_keys:
            data_keys.remove("inputSchema")
            data__inputSchema = data["inputSchema"]
            _route__definitions_resourcelocation(data__inputSchema, custom_formats, (name_prefix or "data") + ".inputSchema")
        if "outputSchema" in data_keys:
            data_keys.remove("outputSchema")
            data__outputSchema = data["outputSchema"]
            _route__definitions_resourcelocation(data__outputSchema, custom_formats, (name_prefix or "data") + ".outputSchema")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _route__definitions_availability(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'immediate' or isinstance(data, str) and data == 'requires-user' or isinstance(data, str) and data == 'blocked'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['immediate', 'requires-user', 'blocked']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_reasoncode(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len > 160:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be shorter than or equal to 160 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxLength')
        if not REGEX_PATTERNS['^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^route\\.[a-z0-9](?:[a-z0-9._/-]*[a-z0-9])?$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _route__definitions_statuscode(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'actionable' or isinstance(data, str) and data == 'waiting-user' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'complete' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['actionable', 'waiting-user', 'blocked', 'complete', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _route__definitions_digest(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^sha256:[a-f0-9]{64}$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^sha256:[a-f0-9]{64}$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- run.schema.json

def validate_run(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'id', 'provider', 'graph', 'entry', 'createdAt', 'updatedAt', 'facts', 'outcomes', 'authorities', 'events']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.run.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.run.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "id" in data_keys:
            data_keys.remove("id")
            data__id = data["id"]
            if not isinstance(data__id, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be string", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='type')
            if isinstance(data__id, str):
                data__id_len = len(data__id)
                if data__id_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".id must be longer than or equal to 1 characters", value=data__id, name="" + (name_prefix or "data") + ".id", definition=None, rule='minLength')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be string", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be longer than or equal to 1 characters", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='minLength')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            if not isinstance(data__entry, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be string", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='type')
            if isinstance(data__entry, str):
                data__entry_len = len(data__entry)
                if data__entry_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be longer than or equal to 1 characters", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='minLength')
        if "workspace" in data_keys:
            data_keys.remove("workspace")
            data__workspace = data["workspace"]
            if not isinstance(data__workspace, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".workspace must be string", value=data__workspace, name="" + (name_prefix or "data") + ".workspace", definition=None, rule='type')
            if isinstance(data__workspace, str):
                data__workspace_len = len(data__workspace)
                if data__workspace_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".workspace must be longer than or equal to 1 characters", value=data__workspace, name="" + (name_prefix or "data") + ".workspace", definition=None, rule='minLength')
        if "createdAt" in data_keys:
            data_keys.remove("createdAt")
            data__createdAt = data["createdAt"]
            _run__definitions_timestamp(data__createdAt, custom_formats, (name_prefix or "data") + ".createdAt")
        if "updatedAt" in data_keys:
            data_keys.remove("updatedAt")
            data__updatedAt = data["updatedAt"]
            _run__definitions_timestamp(data__updatedAt, custom_formats, (name_prefix or "data") + ".updatedAt")
        if "facts" in data_keys:
            data_keys.remove("facts")
            data__facts = data["facts"]
            if not isinstance(data__facts, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".facts must be object", value=data__facts, name="" + (name_prefix or "data") + ".facts", definition=None, rule='type')
        if "outcomes" in data_keys:
            data_keys.remove("outcomes")
            data__outcomes = data["outcomes"]
            if not isinstance(data__outcomes, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".outcomes must be object", value=data__outcomes, name="" + (name_prefix or "data") + ".outcomes", definition=None, rule='type')
            data__outcomes_is_dict = isinstance(data__outcomes, dict)
            if data__outcomes_is_dict:
                data__outcomes_keys = set(data__outcomes.keys())
                for data__outcomes_key in data__outcomes_keys:
                    if data__outcomes_key not in []:
                        data__outcomes_value = data__outcomes.get(data__outcomes_key)
                        _run__definitions_outcomerecord(data__outcomes_value, custom_formats, (name_prefix or "data") + f".outcomes.{data__outcomes_key}")
        if "authorities" in data_keys:
            data_keys.remove("authorities")
            data__authorities = data["authorities"]
            if not isinstance(data__authorities, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".authorities must be array", value=data__authorities, name="" + (name_prefix or "data") + ".authorities", definition=None, rule='type')
            data__authorities_is_list = isinstance(data__authorities, (list, tuple))
            if data__authorities_is_list:
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                data__authorities_len = len(data__authorities)
                if data__authorities_len > len(set(fn(data__authorities_x) for data__authorities_x in data__authorities)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".authorities must contain unique items", value=data__authorities, name="" + (name_prefix or "data") + ".authorities", definition=None, rule='uniqueItems')
                for data__authorities_x, data__authorities_item in enumerate(data__authorities):
                    if not isinstance(data__authorities_item, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + f".authorities[{data__authorities_x}]" + " must be string", value=data__authorities_item, name="" + (name_prefix or "data") + f".authorities[{data__authorities_x}]" + "", definition=None, rule='type')
        if "events" in data_keys:
            data_keys.remove("events")
            data__events = data["events"]
            if not isinstance(data__events, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".events must be array", value=data__events, name="" + (name_prefix or "data") + ".events", definition=None, rule='type')
            data__events_is_list = isinstance(data__events, (list, tuple))
            if data__events_is_list:
                data__events_len = len(data__events)
                for data__events_x, data__events_item in enumerate(data__events):
                    _run__definitions_event(data__events_item, custom_formats, (name_prefix or "data") + f".events[{data__events_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _run__definitions_event(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['sequence', 'at', 'type']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "sequence" in data_keys:
            data_keys.remove("sequence")
            data__sequence = data["sequence"]
            if not isinstance(data__sequence, (int)) and not (isinstance(data__sequence, float) and data__sequence.is_integer()) or isinstance(data__sequence, bool):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".sequence must be integer", value=data__sequence, name="" + (name_prefix or "data") + ".sequence", definition=None, rule='type')
            if isinstance(data__sequence, (int, float, Decimal)) and not isinstance(data__sequence, bool):
                if data__sequence < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".sequence must be bigger than or equal to 1", value=data__sequence, name="" + (name_prefix or "data") + ".sequence", definition=None, rule='minimum')
        if "at" in data_keys:
            data_keys.remove("at")
            data__at = data["at"]
            _run__definitions_timestamp(data__at, custom_formats, (name_prefix or "data") + ".at")
        if "type" in data_keys:
            data_keys.remove("type")
            data__type = data["type"]
            if not isinstance(data__type, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be string", value=data__type, name="" + (name_prefix or "data") + ".type", definition=None, rule='type')
            if isinstance(data__type, str):
                data__type_len = len(data__type)
                if data__type_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".type must be longer than or equal to 1 characters", value=data__type, name="" + (name_prefix or "data") + ".type", definition=None, rule='minLength')
        if "node" in data_keys:
            data_keys.remove("node")
            data__node = data["node"]
            if not isinstance(data__node, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".node must be string", value=data__node, name="" + (name_prefix or "data") + ".node", definition=None, rule='type')
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            _run__definitions_outcome(data__outcome, custom_formats, (name_prefix or "data") + ".outcome")
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _run__definitions_outcome(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'completed' or isinstance(data, str) and data == 'partial' or isinstance(data, str) and data == 'failed' or isinstance(data, str) and data == 'unverified' or isinstance(data, str) and data == 'skipped' or isinstance(data, str) and data == 'pending' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'waiting-user'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['completed', 'partial', 'failed', 'unverified', 'skipped', 'pending', 'blocked', 'waiting-user']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _run__definitions_outcomerecord(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['outcome', 'recordedAt']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            _run__definitions_outcome(data__outcome, custom_formats, (name_prefix or "data") + ".outcome")
        if "recordedAt" in data_keys:
            data_keys.remove("recordedAt")
            data__recordedAt = data["recordedAt"]
            _run__definitions_timestamp(data__recordedAt, custom_formats, (name_prefix or "data") + ".recordedAt")
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _run__definitions_timestamp(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data


# ---------------------------------------------------------------------- skill-binding.schema.json

def validate_skill_binding(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'skillPath', 'locator', 'graph', 'entry', 'manifestPath', 'provider']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.skill-binding.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.skill-binding.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "skillPath" in data_keys:
            data_keys.remove("skillPath")
            data__skillPath = data["skillPath"]
            if not isinstance(data__skillPath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".skillPath must be string", value=data__skillPath, name="" + (name_prefix or "data") + ".skillPath", definition=None, rule='type')
            if isinstance(data__skillPath, str):
                data__skillPath_len = len(data__skillPath)
                if data__skillPath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".skillPath must be longer than or equal to 1 characters", value=data__skillPath, name="" + (name_prefix or "data") + ".skillPath", definition=None, rule='minLength')
        if "locator" in data_keys:
            data_keys.remove("locator")
            data__locator = data["locator"]
            if not isinstance(data__locator, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".locator must be string", value=data__locator, name="" + (name_prefix or "data") + ".locator", definition=None, rule='type')
            if isinstance(data__locator, str):
                if not REGEX_PATTERNS['^(?:path:|provider:).+'].search(data__locator):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".locator must match pattern ^(?:path:|provider:).+", value=data__locator, name="" + (name_prefix or "data") + ".locator", definition=None, rule='pattern')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            if not isinstance(data__entry, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be string", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='type')
            if isinstance(data__entry, str):
                data__entry_len = len(data__entry)
                if data__entry_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be longer than or equal to 1 characters", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='minLength')
        if "manifestPath" in data_keys:
            data_keys.remove("manifestPath")
            data__manifestPath = data["manifestPath"]
            if not isinstance(data__manifestPath, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".manifestPath must be string", value=data__manifestPath, name="" + (name_prefix or "data") + ".manifestPath", definition=None, rule='type')
            if isinstance(data__manifestPath, str):
                data__manifestPath_len = len(data__manifestPath)
                if data__manifestPath_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".manifestPath must be longer than or equal to 1 characters", value=data__manifestPath, name="" + (name_prefix or "data") + ".manifestPath", definition=None, rule='minLength')
        if "provider" in data_keys:
            data_keys.remove("provider")
            data__provider = data["provider"]
            if not isinstance(data__provider, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be string", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='type')
            if isinstance(data__provider, str):
                data__provider_len = len(data__provider)
                if data__provider_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".provider must be longer than or equal to 1 characters", value=data__provider, name="" + (name_prefix or "data") + ".provider", definition=None, rule='minLength')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data


# ---------------------------------------------------------------------- test-case.schema.json

def validate_test_case(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'name', 'graph', 'expect']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.test.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.test.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='type')
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be longer than or equal to 1 characters", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='minLength')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            if not isinstance(data__entry, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be string", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='type')
            if isinstance(data__entry, str):
                data__entry_len = len(data__entry)
                if data__entry_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be longer than or equal to 1 characters", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='minLength')
        if "state" in data_keys:
            data_keys.remove("state")
            data__state = data["state"]
            if not isinstance(data__state, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".state must be object", value=data__state, name="" + (name_prefix or "data") + ".state", definition=None, rule='type')
            data__state_is_dict = isinstance(data__state, dict)
            if data__state_is_dict:
                data__state_keys = set(data__state.keys())
                if "facts" in data__state_keys:
                    data__state_keys.remove("facts")
                    data__state__facts = data__state["facts"]
                    if not isinstance(data__state__facts, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".state.facts must be object", value=data__state__facts, name="" + (name_prefix or "data") + ".state.facts", definition=None, rule='type')
                if "outcomes" in data__state_keys:
                    data__state_keys.remove("outcomes")
                    data__state__outcomes = data__state["outcomes"]
                    if not isinstance(data__state__outcomes, (dict)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".state.outcomes must be object", value=data__state__outcomes, name="" + (name_prefix or "data") + ".state.outcomes", definition=None, rule='type')
                    data__state__outcomes_is_dict = isinstance(data__state__outcomes, dict)
                    if data__state__outcomes_is_dict:
                        data__state__outcomes_keys = set(data__state__outcomes.keys())
                        for data__state__outcomes_key in data__state__outcomes_keys:
                            if data__state__outcomes_key not in []:
                                data__state__outcomes_value = data__state__outcomes.get(data__state__outcomes_key)
                                data__state__outcomes_value_one_of_count1 = 0
                                if data__state__outcomes_value_one_of_count1 < 2:
                                    try:
                                        _test_case__definitions_outcome(data__state__outcomes_value, custom_formats, (name_prefix or "data") + f".state.outcomes.{data__state__outcomes_key}")
                                        data__state__outcomes_value_one_of_count1 += 1
                                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                if data__state__outcomes_value_one_of_count1 < 2:
                                    try:
                                        _test_case__definitions_outcomerecord(data__state__outcomes_value, custom_formats, (name_prefix or "data") + f".state.outcomes.{data__state__outcomes_key}")
                                        data__state__outcomes_value_one_of_count1 += 1
                                    except (JsonSchemaValueException, JsonSchemaValuesException): pass
                                if data__state__outcomes_value_one_of_count1 != 1:
                                    raise JsonSchemaValueException("" + (name_prefix or "data") + f".state.outcomes.{data__state__outcomes_key}" + " must be valid exactly by one definition" + (" (" + str(data__state__outcomes_value_one_of_count1) + " matches found)"), value=data__state__outcomes_value, name="" + (name_prefix or "data") + f".state.outcomes.{data__state__outcomes_key}" + "", definition=None, rule='oneOf')
                if "authorities" in data__state_keys:
                    data__state_keys.remove("authorities")
                    data__state__authorities = data__state["authorities"]
                    if not isinstance(data__state__authorities, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".state.authorities must be array", value=data__state__authorities, name="" + (name_prefix or "data") + ".state.authorities", definition=None, rule='type')
                    data__state__authorities_is_list = isinstance(data__state__authorities, (list, tuple))
                    if data__state__authorities_is_list:
                        def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                        data__state__authorities_len = len(data__state__authorities)
                        if data__state__authorities_len > len(set(fn(data__state__authorities_x) for data__state__authorities_x in data__state__authorities)):
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".state.authorities must contain unique items", value=data__state__authorities, name="" + (name_prefix or "data") + ".state.authorities", definition=None, rule='uniqueItems')
                        for data__state__authorities_x, data__state__authorities_item in enumerate(data__state__authorities):
                            if not isinstance(data__state__authorities_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".state.authorities[{data__state__authorities_x}]" + " must be string", value=data__state__authorities_item, name="" + (name_prefix or "data") + f".state.authorities[{data__state__authorities_x}]" + "", definition=None, rule='type')
                if data__state_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".state must not contain "+str(data__state_keys)+" properties", value=data__state, name="" + (name_prefix or "data") + ".state", definition=None, rule='additionalProperties')
        if "expect" in data_keys:
            data_keys.remove("expect")
            data__expect = data["expect"]
            if not isinstance(data__expect, (dict)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must be object", value=data__expect, name="" + (name_prefix or "data") + ".expect", definition=None, rule='type')
            data__expect_is_dict = isinstance(data__expect, dict)
            if data__expect_is_dict:
                data__expect__missing_keys = set(['statusCode']) - data__expect.keys()
                if data__expect__missing_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must contain " + (str(sorted(data__expect__missing_keys)) + " properties"), value=data__expect, name="" + (name_prefix or "data") + ".expect", definition=None, rule='required')
                data__expect_keys = set(data__expect.keys())
                if "statusCode" in data__expect_keys:
                    data__expect_keys.remove("statusCode")
                    data__expect__statusCode = data__expect["statusCode"]
                    if not (isinstance(data__expect__statusCode, str) and data__expect__statusCode == 'actionable' or isinstance(data__expect__statusCode, str) and data__expect__statusCode == 'waiting-user' or isinstance(data__expect__statusCode, str) and data__expect__statusCode == 'blocked' or isinstance(data__expect__statusCode, str) and data__expect__statusCode == 'complete' or isinstance(data__expect__statusCode, str) and data__expect__statusCode == 'error'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.statusCode must be one of ['actionable', 'waiting-user', 'blocked', 'complete', 'error']", value=data__expect__statusCode, name="" + (name_prefix or "data") + ".expect.statusCode", definition=None, rule='enum')
                if "primaryNode" in data__expect_keys:
                    data__expect_keys.remove("primaryNode")
                    data__expect__primaryNode = data__expect["primaryNode"]
                    if not isinstance(data__expect__primaryNode, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.primaryNode must be string", value=data__expect__primaryNode, name="" + (name_prefix or "data") + ".expect.primaryNode", definition=None, rule='type')
                if "primaryReasonCode" in data__expect_keys:
                    data__expect_keys.remove("primaryReasonCode")
                    data__expect__primaryReasonCode = data__expect["primaryReasonCode"]
                    if not isinstance(data__expect__primaryReasonCode, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.primaryReasonCode must be string", value=data__expect__primaryReasonCode, name="" + (name_prefix or "data") + ".expect.primaryReasonCode", definition=None, rule='type')
                if "alternativeNodes" in data__expect_keys:
                    data__expect_keys.remove("alternativeNodes")
                    data__expect__alternativeNodes = data__expect["alternativeNodes"]
                    if not isinstance(data__expect__alternativeNodes, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.alternativeNodes must be array", value=data__expect__alternativeNodes, name="" + (name_prefix or "data") + ".expect.alternativeNodes", definition=None, rule='type')
                    data__expect__alternativeNodes_is_list = isinstance(data__expect__alternativeNodes, (list, tuple))
                    if data__expect__alternativeNodes_is_list:
                        data__expect__alternativeNodes_len = len(data__expect__alternativeNodes)
                        for data__expect__alternativeNodes_x, data__expect__alternativeNodes_item in enumerate(data__expect__alternativeNodes):
                            if not isinstance(data__expect__alternativeNodes_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".expect.alternativeNodes[{data__expect__alternativeNodes_x}]" + " must be string", value=data__expect__alternativeNodes_item, name="" + (name_prefix or "data") + f".expect.alternativeNodes[{data__expect__alternativeNodes_x}]" + "", definition=None, rule='type')
                if "availability" in data__expect_keys:
                    data__expect_keys.remove("availability")
                    data__expect__availability = data__expect["availability"]
                    if not (isinstance(data__expect__availability, str) and data__expect__availability == 'immediate' or isinstance(data__expect__availability, str) and data__expect__availability == 'requires-user' or isinstance(data__expect__availability, str) and data__expect__availability == 'blocked'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.availability must be one of ['immediate', 'requires-user', 'blocked']", value=data__expect__availability, name="" + (name_prefix or "data") + ".expect.availability", definition=None, rule='enum')
                if "command" in data__expect_keys:
                    data__expect_keys.remove("command")
                    data__expect__command = data__expect["command"]
                    if not isinstance(data__expect__command, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.command must be string", value=data__expect__command, name="" + (name_prefix or "data") + ".expect.command", definition=None, rule='type')
                    if isinstance(data__expect__command, str):
                        data__expect__command_len = len(data__expect__command)
                        if data__expect__command_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.command must be longer than or equal to 1 characters", value=data__expect__command, name="" + (name_prefix or "data") + ".expect.command", definition=None, rule='minLength')
                if "handler" in data__expect_keys:
                    data__expect_keys.remove("handler")
                    data__expect__handler = data__expect["handler"]
                    if not isinstance(data__expect__handler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.handler must be string", value=data__expect__handler, name="" + (name_prefix or "data") + ".expect.handler", definition=None, rule='type')
                    if isinstance(data__expect__handler, str):
                        data__expect__handler_len = len(data__expect__handler)
                        if data__expect__handler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.handler must be longer than or equal to 1 characters", value=data__expect__handler, name="" + (name_prefix or "data") + ".expect.handler", definition=None, rule='minLength')
                if "requiredResources" in data__expect_keys:
                    data__expect_keys.remove("requiredResources")
                    data__expect__requiredResources = data__expect["requiredResources"]
                    if not isinstance(data__expect__requiredResources, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.requiredResources must be array", value=data__expect__requiredResources, name="" + (name_prefix or "data") + ".expect.requiredResources", definition=None, rule='type')
                    data__expect__requiredResources_is_list = isinstance(data__expect__requiredResources, (list, tuple))
                    if data__expect__requiredResources_is_list:
                        data__expect__requiredResources_len = len(data__expect__requiredResources)
                        for data__expect__requiredResources_x, data__expect__requiredResources_item in enumerate(data__expect__requiredResources):
                            if not isinstance(data__expect__requiredResources_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".expect.requiredResources[{data__expect__requiredResources_x}]" + " must be string", value=data__expect__requiredResources_item, name="" + (name_prefix or "data") + f".expect.requiredResources[{data__expect__requiredResources_x}]" + "", definition=None, rule='type')
                if "recommendedResources" in data__expect_keys:
                    data__expect_keys.remove("recommendedResources")
                    data__expect__recommendedResources = data__expect["recommendedResources"]
                    if not isinstance(data__expect__recommendedResources, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.recommendedResources must be array", value=data__expect__recommendedResources, name="" + (name_prefix or "data") + ".expect.recommendedResources", definition=None, rule='type')
                    data__expect__recommendedResources_is_list = isinstance(data__expect__recommendedResources, (list, tuple))
                    if data__expect__recommendedResources_is_list:
                        data__expect__recommendedResources_len = len(data__expect__recommendedResources)
                        for data__expect__recommendedResources_x, data__expect__recommendedResources_item in enumerate(data__expect__recommendedResources):
                            if not isinstance(data__expect__recommendedResources_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".expect.recommendedResources[{data__expect__recommendedResources_x}]" + " must be string", value=data__expect__recommendedResources_item, name="" + (name_prefix or "data") + f".expect.recommendedResources[{data__expect__recommendedResources_x}]" + "", definition=None, rule='type')
                if "gateResolution" in data__expect_keys:
                    data__expect_keys.remove("gateResolution")
                    data__expect__gateResolution = data__expect["gateResolution"]
                    if not (isinstance(data__expect__gateResolution, str) and data__expect__gateResolution == 'user' or isinstance(data__expect__gateResolution, str) and data__expect__gateResolution == 'session-authority'):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.gateResolution must be one of ['user', 'session-authority']", value=data__expect__gateResolution, name="" + (name_prefix or "data") + ".expect.gateResolution", definition=None, rule='enum')
                if "inspectionCommand" in data__expect_keys:
                    data__expect_keys.remove("inspectionCommand")
                    data__expect__inspectionCommand = data__expect["inspectionCommand"]
                    if not isinstance(data__expect__inspectionCommand, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionCommand must be string", value=data__expect__inspectionCommand, name="" + (name_prefix or "data") + ".expect.inspectionCommand", definition=None, rule='type')
                    if isinstance(data__expect__inspectionCommand, str):
                        data__expect__inspectionCommand_len = len(data__expect__inspectionCommand)
                        if data__expect__inspectionCommand_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionCommand must be longer than or equal to 1 characters", value=data__expect__inspectionCommand, name="" + (name_prefix or "data") + ".expect.inspectionCommand", definition=None, rule='minLength')
                if "inspectionHandler" in data__expect_keys:
                    data__expect_keys.remove("inspectionHandler")
                    data__expect__inspectionHandler = data__expect["inspectionHandler"]
                    if not isinstance(data__expect__inspectionHandler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionHandler must be string", value=data__expect__inspectionHandler, name="" + (name_prefix or "data") + ".expect.inspectionHandler", definition=None, rule='type')
                    if isinstance(data__expect__inspectionHandler, str):
                        data__expect__inspectionHandler_len = len(data__expect__inspectionHandler)
                        if data__expect__inspectionHandler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionHandler must be longer than or equal to 1 characters", value=data__expect__inspectionHandler, name="" + (name_prefix or "data") + ".expect.inspectionHandler", definition=None, rule='minLength')
                if "inspectionSkill" in data__expect_keys:
                    data__expect_keys.remove("inspectionSkill")
                    data__expect__inspectionSkill = data__expect["inspectionSkill"]
                    if not isinstance(data__expect__inspectionSkill, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionSkill must be string", value=data__expect__inspectionSkill, name="" + (name_prefix or "data") + ".expect.inspectionSkill", definition=None, rule='type')
                    if isinstance(data__expect__inspectionSkill, str):
                        data__expect__inspectionSkill_len = len(data__expect__inspectionSkill)
                        if data__expect__inspectionSkill_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionSkill must be longer than or equal to 1 characters", value=data__expect__inspectionSkill, name="" + (name_prefix or "data") + ".expect.inspectionSkill", definition=None, rule='minLength')
                if "inspectionInputSchema" in data__expect_keys:
                    data__expect_keys.remove("inspectionInputSchema")
                    data__expect__inspectionInputSchema = data__expect["inspectionInputSchema"]
                    if not isinstance(data__expect__inspectionInputSchema, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionInputSchema must be string", value=data__expect__inspectionInputSchema, name="" + (name_prefix or "data") + ".expect.inspectionInputSchema", definition=None, rule='type')
                    if isinstance(data__expect__inspectionInputSchema, str):
                        data__expect__inspectionInputSchema_len = len(data__expect__inspectionInputSchema)
                        if data__expect__inspectionInputSchema_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.inspectionInputSchema must be longer than or equal to 1 characters", value=data__expect__inspectionInputSchema, name="" + (name_prefix or "data") + ".expect.inspectionInputSchema", definition=None, rule='minLength')
                if "resolutionCommand" in data__expect_keys:
                    data__expect_keys.remove("resolutionCommand")
                    data__expect__resolutionCommand = data__expect["resolutionCommand"]
                    if not isinstance(data__expect__resolutionCommand, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionCommand must be string", value=data__expect__resolutionCommand, name="" + (name_prefix or "data") + ".expect.resolutionCommand", definition=None, rule='type')
                    if isinstance(data__expect__resolutionCommand, str):
                        data__expect__resolutionCommand_len = len(data__expect__resolutionCommand)
                        if data__expect__resolutionCommand_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionCommand must be longer than or equal to 1 characters", value=data__expect__resolutionCommand, name="" + (name_prefix or "data") + ".expect.resolutionCommand", definition=None, rule='minLength')
                if "resolutionHandler" in data__expect_keys:
                    data__expect_keys.remove("resolutionHandler")
                    data__expect__resolutionHandler = data__expect["resolutionHandler"]
                    if not isinstance(data__expect__resolutionHandler, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionHandler must be string", value=data__expect__resolutionHandler, name="" + (name_prefix or "data") + ".expect.resolutionHandler", definition=None, rule='type')
                    if isinstance(data__expect__resolutionHandler, str):
                        data__expect__resolutionHandler_len = len(data__expect__resolutionHandler)
                        if data__expect__resolutionHandler_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionHandler must be longer than or equal to 1 characters", value=data__expect__resolutionHandler, name="" + (name_prefix or "data") + ".expect.resolutionHandler", definition=None, rule='minLength')
                if "resolutionSkill" in data__expect_keys:
                    data__expect_keys.remove("resolutionSkill")
                    data__expect__resolutionSkill = data__expect["resolutionSkill"]
                    if not isinstance(data__expect__resolutionSkill, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionSkill must be string", value=data__expect__resolutionSkill, name="" + (name_prefix or "data") + ".expect.resolutionSkill", definition=None, rule='type')
                    if isinstance(data__expect__resolutionSkill, str):
                        data__expect__resolutionSkill_len = len(data__expect__resolutionSkill)
                        if data__expect__resolutionSkill_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionSkill must be longer than or equal to 1 characters", value=data__expect__resolutionSkill, name="" + (name_prefix or "data") + ".expect.resolutionSkill", definition=None, rule='minLength')
                if "resolutionInputSchema" in data__expect_keys:
                    data__expect_keys.remove("resolutionInputSchema")
                    data__expect__resolutionInputSchema = data__expect["resolutionInputSchema"]
                    if not isinstance(data__expect__resolutionInputSchema, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionInputSchema must be string", value=data__expect__resolutionInputSchema, name="" + (name_prefix or "data") + ".expect.resolutionInputSchema", definition=None, rule='type')
                    if isinstance(data__expect__resolutionInputSchema, str):
                        data__expect__resolutionInputSchema_len = len(data__expect__resolutionInputSchema)
                        if data__expect__resolutionInputSchema_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.resolutionInputSchema must be longer than or equal to 1 characters", value=data__expect__resolutionInputSchema, name="" + (name_prefix or "data") + ".expect.resolutionInputSchema", definition=None, rule='minLength')
                if "recordNode" in data__expect_keys:
                    data__expect_keys.remove("recordNode")
                    data__expect__recordNode = data__expect["recordNode"]
                    if not isinstance(data__expect__recordNode, (str)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.recordNode must be string", value=data__expect__recordNode, name="" + (name_prefix or "data") + ".expect.recordNode", definition=None, rule='type')
                    if isinstance(data__expect__recordNode, str):
                        data__expect__recordNode_len = len(data__expect__recordNode)
                        if data__expect__recordNode_len < 1:
                            raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.recordNode must be longer than or equal to 1 characters", value=data__expect__recordNode, name="" + (name_prefix or "data") + ".expect.recordNode", definition=None, rule='minLength')
                if "outcome" in data__expect_keys:
                    data__expect_keys.remove("outcome")
                    data__expect__outcome = data__expect["outcome"]
                    _test_case__definitions_outcome(data__expect__outcome, custom_formats, (name_prefix or "data") + ".expect.outcome")
                if "diagnosticsInclude" in data__expect_keys:
                    data__expect_keys.remove("diagnosticsInclude")
                    data__expect__diagnosticsInclude = data__expect["diagnosticsInclude"]
                    if not isinstance(data__expect__diagnosticsInclude, (list, tuple)):
                        raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect.diagnosticsInclude must be array", value=data__expect__diagnosticsInclude, name="" + (name_prefix or "data") + ".expect.diagnosticsInclude", definition=None, rule='type')
                    data__expect__diagnosticsInclude_is_list = isinstance(data__expect__diagnosticsInclude, (list, tuple))
                    if data__expect__diagnosticsInclude_is_list:
                        data__expect__diagnosticsInclude_len = len(data__expect__diagnosticsInclude)
                        for data__expect__diagnosticsInclude_x, data__expect__diagnosticsInclude_item in enumerate(data__expect__diagnosticsInclude):
                            if not isinstance(data__expect__diagnosticsInclude_item, (str)):
                                raise JsonSchemaValueException("" + (name_prefix or "data") + f".expect.diagnosticsInclude[{data__expect__diagnosticsInclude_x}]" + " must be string", value=data__expect__diagnosticsInclude_item, name="" + (name_prefix or "data") + f".expect.diagnosticsInclude[{data__expect__diagnosticsInclude_x}]" + "", definition=None, rule='type')
                if data__expect_keys:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".expect must not contain "+str(data__expect_keys)+" properties", value=data__expect, name="" + (name_prefix or "data") + ".expect", definition=None, rule='additionalProperties')
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _test_case__definitions_outcomerecord(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['outcome', 'recordedAt']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            _test_case__definitions_outcome(data__outcome, custom_formats, (name_prefix or "data") + ".outcome")
        if "recordedAt" in data_keys:
            data_keys.remove("recordedAt")
            data__recordedAt = data["recordedAt"]
            _test_case__definitions_datetime(data__recordedAt, custom_formats, (name_prefix or "data") + ".recordedAt")
        if "detail" in data_keys:
            data_keys.remove("detail")
            data__detail = data["detail"]
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _test_case__definitions_datetime(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        if not REGEX_PATTERNS['^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$'].search(data):
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must match pattern ^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='pattern')
    return data

def _test_case__definitions_outcome(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'completed' or isinstance(data, str) and data == 'partial' or isinstance(data, str) and data == 'failed' or isinstance(data, str) and data == 'unverified' or isinstance(data, str) and data == 'skipped' or isinstance(data, str) and data == 'pending' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'waiting-user'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['completed', 'partial', 'failed', 'unverified', 'skipped', 'pending', 'blocked', 'waiting-user']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


# ---------------------------------------------------------------------- verify.schema.json

def validate_verify(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data__missing_keys = set(['schema', 'graph', 'properties']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "schema" in data_keys:
            data_keys.remove("schema")
            data__schema = data["schema"]
            if not (isinstance(data__schema, str) and data__schema == 'agent-graph.verify.v1'):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".schema must be same as const definition: agent-graph.verify.v1", value=data__schema, name="" + (name_prefix or "data") + ".schema", definition=None, rule='const')
        if "graph" in data_keys:
            data_keys.remove("graph")
            data__graph = data["graph"]
            if not isinstance(data__graph, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be string", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='type')
            if isinstance(data__graph, str):
                data__graph_len = len(data__graph)
                if data__graph_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".graph must be longer than or equal to 1 characters", value=data__graph, name="" + (name_prefix or "data") + ".graph", definition=None, rule='minLength')
        if "entry" in data_keys:
            data_keys.remove("entry")
            data__entry = data["entry"]
            if not isinstance(data__entry, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be string", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='type')
            if isinstance(data__entry, str):
                data__entry_len = len(data__entry)
                if data__entry_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".entry must be longer than or equal to 1 characters", value=data__entry, name="" + (name_prefix or "data") + ".entry", definition=None, rule='minLength')
        if "properties" in data_keys:
            data_keys.remove("properties")
            data__properties = data["properties"]
            if not isinstance(data__properties, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties must be array", value=data__properties, name="" + (name_prefix or "data") + ".properties", definition=None, rule='type')
            data__properties_is_list = isinstance(data__properties, (list, tuple))
            if data__properties_is_list:
                data__properties_len = len(data__properties)
                if data__properties_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".properties must contain at least 1 items", value=data__properties, name="" + (name_prefix or "data") + ".properties", definition=None, rule='minItems')
                for data__properties_x, data__properties_item in enumerate(data__properties):
                    _verify__definitions_property(data__properties_item, custom_formats, (name_prefix or "data") + f".properties[{data__properties_x}]")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _verify__definitions_property(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 2:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 2 properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minProperties')
        if data_len > 2:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain less than or equal to 2 properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='maxProperties')
        data__missing_keys = set(['name']) - data.keys()
        if data__missing_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain " + (str(sorted(data__missing_keys)) + " properties"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='required')
        data_keys = set(data.keys())
        if "name" in data_keys:
            data_keys.remove("name")
            data__name = data["name"]
            if not isinstance(data__name, (str)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be string", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='type')
            if isinstance(data__name, str):
                data__name_len = len(data__name)
                if data__name_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + ".name must be longer than or equal to 1 characters", value=data__name, name="" + (name_prefix or "data") + ".name", definition=None, rule='minLength')
        if "always" in data_keys:
            data_keys.remove("always")
            data__always = data["always"]
            _verify__definitions_condition(data__always, custom_formats, (name_prefix or "data") + ".always")
        if "never" in data_keys:
            data_keys.remove("never")
            data__never = data["never"]
            _verify__definitions_condition(data__never, custom_formats, (name_prefix or "data") + ".never")
        if "reachable" in data_keys:
            data_keys.remove("reachable")
            data__reachable = data["reachable"]
            _verify__definitions_condition(data__reachable, custom_formats, (name_prefix or "data") + ".reachable")
        if "alwaysReachable" in data_keys:
            data_keys.remove("alwaysReachable")
            data__alwaysReachable = data["alwaysReachable"]
            _verify__definitions_condition(data__alwaysReachable, custom_formats, (name_prefix or "data") + ".alwaysReachable")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _verify__definitions_condition(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (dict)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be object", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    data_is_dict = isinstance(data, dict)
    if data_is_dict:
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minProperties')
        data_keys = set(data.keys())
        if "statusCode" in data_keys:
            data_keys.remove("statusCode")
            data__statusCode = data["statusCode"]
            _verify__definitions_statuscodes(data__statusCode, custom_formats, (name_prefix or "data") + ".statusCode")
        if "outcome" in data_keys:
            data_keys.remove("outcome")
            data__outcome = data["outcome"]
            _verify__definitions_outcomes(data__outcome, custom_formats, (name_prefix or "data") + ".outcome")
        if "terminal" in data_keys:
            data_keys.remove("terminal")
            data__terminal = data["terminal"]
            _verify__definitions_names(data__terminal, custom_formats, (name_prefix or "data") + ".terminal")
        if "primaryNode" in data_keys:
            data_keys.remove("primaryNode")
            data__primaryNode = data["primaryNode"]
            _verify__definitions_names(data__primaryNode, custom_formats, (name_prefix or "data") + ".primaryNode")
        if "offers" in data_keys:
            data_keys.remove("offers")
            data__offers = data["offers"]
            _verify__definitions_names(data__offers, custom_formats, (name_prefix or "data") + ".offers")
        if data_keys:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must not contain "+str(data_keys)+" properties", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='additionalProperties')
    return data

def _verify__definitions_names(data, custom_formats={}, name_prefix=None):
    data_one_of_count1 = 0
    if data_one_of_count1 < 2:
        try:
            _verify__definitions_name(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 < 2:
        try:
            if not isinstance(data, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
            data_is_list = isinstance(data, (list, tuple))
            if data_is_list:
                data_len = len(data)
                if data_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minItems')
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                if data_len > len(set(fn(data_x) for data_x in data)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain unique items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='uniqueItems')
                for data_x, data_item in enumerate(data):
                    _verify__definitions_name(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
            data_one_of_count1 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count1 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count1) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    return data

def _verify__definitions_name(data, custom_formats={}, name_prefix=None):
    if not isinstance(data, (str)):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be string", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
    if isinstance(data, str):
        data_len = len(data)
        if data_len < 1:
            raise JsonSchemaValueException("" + (name_prefix or "data") + " must be longer than or equal to 1 characters", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minLength')
    return data

def _verify__definitions_outcomes(data, custom_formats={}, name_prefix=None):
    data_one_of_count2 = 0
    if data_one_of_count2 < 2:
        try:
            _verify__definitions_outcome(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count2 < 2:
        try:
            if not isinstance(data, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
            data_is_list = isinstance(data, (list, tuple))
            if data_is_list:
                data_len = len(data)
                if data_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minItems')
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                if data_len > len(set(fn(data_x) for data_x in data)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain unique items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='uniqueItems')
                for data_x, data_item in enumerate(data):
                    _verify__definitions_outcome(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
            data_one_of_count2 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count2 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count2) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    return data

def _verify__definitions_outcome(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'completed' or isinstance(data, str) and data == 'partial' or isinstance(data, str) and data == 'failed' or isinstance(data, str) and data == 'unverified' or isinstance(data, str) and data == 'skipped' or isinstance(data, str) and data == 'pending' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'waiting-user'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['completed', 'partial', 'failed', 'unverified', 'skipped', 'pending', 'blocked', 'waiting-user']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data

def _verify__definitions_statuscodes(data, custom_formats={}, name_prefix=None):
    data_one_of_count3 = 0
    if data_one_of_count3 < 2:
        try:
            _verify__definitions_statuscode(data, custom_formats, (name_prefix or "data") + "")
            data_one_of_count3 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count3 < 2:
        try:
            if not isinstance(data, (list, tuple)):
                raise JsonSchemaValueException("" + (name_prefix or "data") + " must be array", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='type')
            data_is_list = isinstance(data, (list, tuple))
            if data_is_list:
                data_len = len(data)
                if data_len < 1:
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain at least 1 items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='minItems')
                def fn(var): return frozenset(dict((k, fn(v)) for k, v in var.items()).items()) if hasattr(var, "items") else tuple(fn(v) for v in var) if isinstance(var, (dict, list)) else (bool, var) if isinstance(var, bool) else var
                if data_len > len(set(fn(data_x) for data_x in data)):
                    raise JsonSchemaValueException("" + (name_prefix or "data") + " must contain unique items", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='uniqueItems')
                for data_x, data_item in enumerate(data):
                    _verify__definitions_statuscode(data_item, custom_formats, (name_prefix or "data") + f"[{data_x}]")
            data_one_of_count3 += 1
        except (JsonSchemaValueException, JsonSchemaValuesException): pass
    if data_one_of_count3 != 1:
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be valid exactly by one definition" + (" (" + str(data_one_of_count3) + " matches found)"), value=data, name="" + (name_prefix or "data") + "", definition=None, rule='oneOf')
    return data

def _verify__definitions_statuscode(data, custom_formats={}, name_prefix=None):
    if not (isinstance(data, str) and data == 'actionable' or isinstance(data, str) and data == 'waiting-user' or isinstance(data, str) and data == 'blocked' or isinstance(data, str) and data == 'complete' or isinstance(data, str) and data == 'error'):
        raise JsonSchemaValueException("" + (name_prefix or "data") + " must be one of ['actionable', 'waiting-user', 'blocked', 'complete', 'error']", value=data, name="" + (name_prefix or "data") + "", definition=None, rule='enum')
    return data


VALIDATORS = {
    'action': validate_action,
    'bundle': validate_bundle,
    'code-catalog': validate_code_catalog,
    'code-location': validate_code_location,
    'error': validate_error,
    'evaluation': validate_evaluation,
    'graph': validate_graph,
    'host-action-result': validate_host_action_result,
    'inspect': validate_inspect,
    'provider': validate_provider,
    'resource': validate_resource,
    'resource-file': validate_resource_file,
    'resource-graph-action': validate_resource_graph_action,
    'resource-host-action': validate_resource_host_action,
    'resource-location': validate_resource_location,
    'resource-location-file': validate_resource_location_file,
    'resource-location-graph-action': validate_resource_location_graph_action,
    'resource-location-host-action': validate_resource_location_host_action,
    'resource-read-receipts': validate_resource_read_receipts,
    'route': validate_route,
    'run': validate_run,
    'skill-binding': validate_skill_binding,
    'test-case': validate_test_case,
    'verify': validate_verify,
}
