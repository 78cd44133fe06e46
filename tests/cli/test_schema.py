"""`quiz schema`: one branch per question type, ids from claims.yaml, the loader's own limits,
and descriptions for authors; what it accepts, the loader accepts, and the other way round."""

import json

import jsonschema
import pytest
import yaml

from quiz.bank import load_bank
from quiz.base import locations
from quiz.cli.main import main
from quiz.format.claims import load_claims
from quiz.format.diagnostics import Report


@pytest.fixture(scope="module")
def validator():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["schema"]) == 0
    schema = json.loads(out.getvalue())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


NUMBER = {"id": "x", "type": "number", "topic": "softmax", "refs": ["C6"], "prompt": "p", "answer": "1"}


def messages(validator, instance):
    return [e.message for e in validator.iter_errors(instance)]


@pytest.mark.parametrize("as_list", [False, True])
def test_a_misspelt_field_is_one_error_naming_it(validator, as_list):
    question = {**NUMBER, "misconceptons": []}
    found = messages(validator, [question] if as_list else question)
    assert found == ["Additional properties are not allowed ('misconceptons' was unexpected)"]


def test_an_unknown_type_is_one_error_listing_the_types(validator):
    [message] = messages(validator, {**NUMBER, "type": "numbr"})
    assert message.startswith("'numbr' is not one of ['number', 'vector', 'matrix', 'choice',")


def test_topics_claims_and_faults_are_the_ids_claims_yaml_and_the_engine_know(validator):
    claims = load_claims(locations.bundled_bank_dir() / "claims.yaml", Report())
    schema = validator.schema["$defs"]["NumberQuestion"]["properties"]
    assert schema["topic"]["else"]["enum"] == list(claims.topics)
    assert schema["refs"]["items"]["else"]["enum"] == list(claims.claims)
    assert messages(validator, {**NUMBER, "topic": "sofmax"})[0].startswith("'sofmax' is not one of")
    assert messages(validator, {**NUMBER, "refs": ["C6", "Q1"]})[0].startswith("'Q1' is not one of")
    fault = {**NUMBER, "params": {"f": {"fault": ["missing_scale", "doubel_scale"]}}}
    assert messages(validator, fault)[0].startswith("'doubel_scale' is not one of")


def test_every_field_has_a_description_for_authors(validator):
    for name, definition in validator.schema["$defs"].items():
        assert definition.get("description"), name
        for field, prop in definition.get("properties", {}).items():
            assert prop.get("description"), f"{name}.{field}"
            assert "evaluator" not in prop["description"] and "dataclass" not in prop["description"]


# Each case: a change to a valid question and whether the loader and the schema should accept it.
CASES = [
    ({"difficulty": 3}, True),
    ({"difficulty": 4}, False),
    ({"difficulty": 0}, False),
    ({"time": 10}, True),
    ({"time": 9}, False),
    ({"time": 3601}, False),
    ({"hint_penalty": 1}, True),
    ({"hint_penalty": 1.5}, False),
    ({"tolerance": {"atol": 0}}, False),
    ({"tolerance": {"atol": 1e-9}}, True),
    ({"tolerance": {"rtol": -0.1}}, False),
    ({"tolerance": {"decimals": 13}}, False),
    ({"tolerance": {"sigfigs": 0}}, False),
    ({"tolerance": {"sigfigs": 15}}, True),
    ({"misconceptions": [{"name": "m", "answer": "2", "feedback": "f", "credit": 1}]}, False),
    ({"misconceptions": [{"name": "m", "answer": "2", "feedback": "f", "credit": 0.99}]}, True),
    ({"misconceptions": [{"name": "Bad name", "answer": "2", "feedback": "f"}]}, False),
    ({"id": "Bad Id"}, False),
    ({"params": {"s": {"integer": ["1", "2", "3"]}}, "answer": "s"}, False),
    ({"params": {"s": {"decimal": ["1", "2"], "step": 0}}, "answer": "s"}, False),
    ({"params": {"s": {"normal": ["2"], "decimals": 7}}, "answer": "s[0]"}, False),
    ({"params": {"s": {"choice": []}}, "answer": "s"}, False),
]


@pytest.mark.parametrize(("change", "valid"), CASES, ids=[json.dumps(c[0]) for c in CASES])
def test_the_schema_and_the_loader_agree_on_limits(validator, tmp_path, change, valid):
    question = {**NUMBER, "explanation": "e", **change}
    assert validator.is_valid(question) is valid
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump(question), encoding="utf-8")
    bank = load_bank([path])
    assert (bank.report.errors == [] and "x" in bank.questions) is valid, [str(e) for e in bank.report.errors]


def test_list_limits_agree_too(validator, tmp_path):
    one_option = {"id": "c", "type": "choice", "topic": "softmax", "prompt": "p", "options": [{"text": "a", "correct": True}]}
    one_item = {"id": "o", "type": "order", "topic": "softmax", "prompt": "p", "items": ["a"]}
    no_rubric = {"id": "e", "type": "explain", "topic": "softmax", "prompt": "p", "model_answer": "m", "rubric": []}
    for question in (one_option, one_item, no_rubric):
        assert not validator.is_valid(question)
        path = tmp_path / f"{question['id']}.yaml"
        path.write_text(yaml.safe_dump(question), encoding="utf-8")
        bank = load_bank([path])
        assert bank.report.errors and question["id"] not in bank.questions


def test_order_item_ids_and_critical_pairs_agree_too(validator, tmp_path):
    base = {"id": "o", "type": "order", "topic": "implementation", "prompt": "p", "explanation": "e"}
    items = [{"id": "mask", "text": "Mask"}, {"id": "softmax", "text": "Softmax"}]
    pair = {"pair": ["mask", "softmax"], "name": "late", "feedback": "f"}
    cases = [
        ({"items": items, "critical": [pair]}, True),
        ({"items": [{"id": "Mask Step", "text": "Mask"}, "Softmax"]}, False),
        ({"items": items, "critical": [{**pair, "cap": 1}]}, False),
        ({"items": items, "critical": [{**pair, "pair": ["mask"]}]}, False),
        ({"items": items, "critical": [{**pair, "colour": "red"}]}, False),
    ]
    for change, valid in cases:
        question = {**base, **change}
        assert validator.is_valid(question) is valid, change
        path = tmp_path / "o.yaml"
        path.write_text(yaml.safe_dump(question), encoding="utf-8")
        bank = load_bank([path])
        assert (bank.report.errors == [] and "o" in bank.questions) is valid, (change, [str(e) for e in bank.report.errors])


def test_a_pack_file_with_its_own_claims_passes_the_schema_and_its_misspelt_keys_do_not(validator):
    pack = yaml.safe_load((locations.bundled_bank_dir().parent / "tests" / "fixtures" / "own-claims" / "rope.yaml").read_text(encoding="utf-8"))
    assert messages(validator, pack) == []
    assert messages(validator, {**pack, "question": []}) == ["Additional properties are not allowed ('question' was unexpected)"]
    assert messages(validator, {"pack": {**pack["pack"], "nmae": "x"}})[0].startswith("Additional properties are not allowed")
    assert messages(validator, {**NUMBER, "refs": ["rope:R1"], "topic": "rope:rotary"}) == []  # only loading knows a pack's own
