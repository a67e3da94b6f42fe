-- Project deletion and insight counters (extensions.md, "Projects" and "Insight counters").
--
-- A deleted project is marked first, so every lookup stops finding it at once, and its rows
-- are then removed in batches in the background (docs/decisions/052-project-delete.md).
ALTER TABLE projects ADD COLUMN deleted_at timestamptz;
CREATE INDEX projects_deleted ON projects (deleted_at) WHERE deleted_at IS NOT NULL;

-- `PATCH /api/insight` adds to a counter in one statement, so the arithmetic happens in the
-- database, with JavaScript's rules: the stored text reads as `Number(text.trim())` and the sum
-- is written as `String(sum)`. Both functions keep to that grammar exactly; a value they refuse
-- raises SQLSTATE EVI01, which the API answers with 400 (the statement, and so nothing, is done).

-- JavaScript's Number() of a string, or NULL when it is empty, not a number or not finite.
CREATE FUNCTION eventlog_js_number(input text) RETURNS float8
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  s text := regexp_replace(input,
    '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g');
  parts text[];
  radix int;
  acc numeric := 0;
  ch text;
  int_digits text;
  effective_exponent numeric;
BEGIN
  IF s = '' THEN RETURN NULL; END IF;
  IF s ~ '^0[xX][0-9a-fA-F]+$' THEN radix := 16;
  ELSIF s ~ '^0[bB][01]+$' THEN radix := 2;
  ELSIF s ~ '^0[oO][0-7]+$' THEN radix := 8;
  END IF;
  IF radix IS NOT NULL THEN
    FOREACH ch IN ARRAY regexp_split_to_array(lower(substr(s, 3)), '') LOOP
      acc := acc * radix + position(ch IN '0123456789abcdef') - 1;
    END LOOP;
    BEGIN
      RETURN acc::float8;
    EXCEPTION WHEN numeric_value_out_of_range THEN
      RETURN NULL;
    END;
  END IF;
  parts := regexp_match(s, '^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$');
  IF parts IS NULL OR (coalesce(parts[2], '') = '' AND coalesce(parts[3], '') = '') THEN
    RETURN NULL;  -- also "Infinity", which is not finite
  END IF;
  BEGIN
    RETURN s::float8;
  EXCEPTION WHEN numeric_value_out_of_range OR invalid_text_representation THEN
    -- Too large (JavaScript: Infinity, refused) or too small (JavaScript: 0).
    int_digits := ltrim(coalesce(parts[2], ''), '0');
    IF int_digits <> '' THEN
      effective_exponent := length(int_digits);
    ELSE
      effective_exponent := -(length(coalesce(parts[3], '')) - length(ltrim(coalesce(parts[3], ''), '0')));
    END IF;
    effective_exponent := effective_exponent + coalesce(parts[4], '0')::numeric;
    IF effective_exponent > 0 THEN RETURN NULL; END IF;
    RETURN CASE WHEN parts[1] = '-' THEN '-0'::float8 ELSE 0::float8 END;
  END;
END
$$;

-- JavaScript's String() of a finite double.
CREATE FUNCTION eventlog_js_string(value float8) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET extra_float_digits = 1 AS $$
DECLARE
  parts text[];
  digits text;
  stripped text;
  k int;
  n int;
  sign text;
  e int;
  candidate numeric;
BEGIN
  IF value = 0 THEN RETURN '0'; END IF;
  -- PostgreSQL prints the same shortest round-trip digits; only the layout differs.
  parts := regexp_match(value::text, '^(-?)([0-9]+)(?:\.([0-9]+))?(?:e([+-][0-9]+))?$');
  sign := parts[1];
  digits := parts[2] || coalesce(parts[3], '');
  stripped := ltrim(digits, '0');
  n := length(parts[2]) - (length(digits) - length(stripped)) + coalesce(parts[4], '0')::int;
  digits := rtrim(stripped, '0');
  k := length(digits);
  -- PostgreSQL prints a large integral double with every digit; JavaScript prints the fewest
  -- digits that read back as the same double.
  IF k >= 16 THEN
    FOR p IN 1..17 LOOP
      candidate := round(('0.' || digits)::numeric, p);
      BEGIN
        IF (sign || candidate::text || 'e' || n::text)::float8 = value THEN
          digits := rtrim(substr(replace(candidate::text, '.', ''), 2), '0');
          IF candidate >= 1 THEN digits := '1'; n := n + 1; END IF;
          EXIT;
        END IF;
      EXCEPTION WHEN numeric_value_out_of_range THEN
        NULL;  -- rounded up past the largest double: not this one
      END;
    END LOOP;
    k := length(digits);
  END IF;
  IF k <= n AND n <= 21 THEN
    RETURN sign || digits || repeat('0', n - k);
  ELSIF 0 < n AND n <= 21 THEN
    RETURN sign || substr(digits, 1, n) || '.' || substr(digits, n + 1);
  ELSIF -6 < n AND n <= 0 THEN
    RETURN sign || '0.' || repeat('0', -n) || digits;
  END IF;
  e := n - 1;
  RETURN sign || substr(digits, 1, 1) || CASE WHEN k > 1 THEN '.' || substr(digits, 2) ELSE '' END
    || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || abs(e)::text;
END
$$;

-- The counter's new text: old + increment, or SQLSTATE EVI01 when old is not a finite number or
-- the sum is not finite.
CREATE FUNCTION eventlog_insight_increment(old_value text, increment float8) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  current float8 := eventlog_js_number(old_value);
  total float8;
BEGIN
  IF current IS NULL THEN
    RAISE EXCEPTION 'the insight''s value is not a number' USING ERRCODE = 'EVI01';
  END IF;
  BEGIN
    total := current + increment;
  EXCEPTION WHEN numeric_value_out_of_range THEN
    RAISE EXCEPTION 'the sum is not a finite number' USING ERRCODE = 'EVI01';
  END;
  IF total = 'Infinity'::float8 OR total = '-Infinity'::float8 OR total = 'NaN'::float8 THEN
    RAISE EXCEPTION 'the sum is not a finite number' USING ERRCODE = 'EVI01';
  END IF;
  RETURN eventlog_js_string(total);
END
$$;
