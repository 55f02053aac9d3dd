package testenv

import "testing"

func TestSlow(t *testing.T) {
	for _, c := range []struct {
		val  string
		want bool
	}{{"1", true}, {"", false}, {"0", false}, {"yes", false}} {
		t.Setenv(Var, c.val)
		if Slow() != c.want {
			t.Errorf("%s=%q: Slow() = %v, want %v", Var, c.val, Slow(), c.want)
		}
	}
	t.Setenv(Var, "")
	ran := false
	t.Run("skipped", func(t *testing.T) {
		SkipUnlessSlow(t, "nothing")
		ran = true
	})
	if ran {
		t.Error("SkipUnlessSlow did not skip with the variable unset")
	}
}
