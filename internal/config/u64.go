package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// U64 is a uint64 that JSON files written by this tool hold as a decimal
// string ("18446744073709551615"), not a bare number: JavaScript's
// JSON.parse, R's jsonlite and every reader that decodes JSON numbers as
// float64 round integers above 2^53 (a seed of 2^64-1 reads back as
// 18446744073709552000), and a seed so changed runs other walks. Seeds,
// and any count that can pass 2^53, are written as U64 in manifest.json,
// part.json and the resolved configuration. Reading accepts the string
// and, for files written before this change, a bare JSON integer.
type U64 uint64

// MarshalJSON writes u as a JSON string of its decimal digits.
func (u U64) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatUint(uint64(u), 10) + `"`), nil
}

// UnmarshalJSON reads a JSON string of decimal digits or a bare integer.
func (u *U64) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		s = str
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s: want an integer from 0 to 18446744073709551615 (a decimal string)", string(b))
	}
	*u = U64(v)
	return nil
}
