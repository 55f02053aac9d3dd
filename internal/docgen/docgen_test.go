package docgen

import "testing"

func TestRegions(t *testing.T) {
	page := "a " + Begin("n") + "six" + End + " b\n" + Begin("blk") + "\nold\n" + End + "\nc\n"
	if got, err := Region(page, "n"); err != nil || got != "six" {
		t.Fatalf("inline region: %q, %v", got, err)
	}
	if ok, err := Holds(page, "blk", "old\n"); err != nil || !ok {
		t.Fatalf("block region does not hold its text: %v", err)
	}
	p, err := Replace(page, "blk", "new\nlines")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a " + Begin("n") + "six" + End + " b\n" + Begin("blk") + "\nnew\nlines\n" + End + "\nc\n"; p != want {
		t.Fatalf("Replace:\n%q\nwant\n%q", p, want)
	}
	if p, err = Replace(p, "n", "seven"); err != nil || p[:len("a "+Begin("n")+"seven")] != "a "+Begin("n")+"seven" {
		t.Fatalf("inline Replace: %q, %v", p, err)
	}
	if names := Names(p + "quoted: `" + Begin("x") + "`\n"); len(names) != 2 || names[0] != "n" || names[1] != "blk" {
		t.Fatalf("Names: %v", names)
	}
	if _, err := Region("x "+Begin("a")+"y", "a"); err == nil {
		t.Fatal("a region without its end marker is not refused")
	}
	if _, err := Region(page, "missing"); err == nil {
		t.Fatal("a missing region is not refused")
	}
}
