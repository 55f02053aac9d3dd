package figures

import "context"

// Draw draws the named figures (nil: those the manifest's config asks for)
// into dir/figures and returns what it wrote. A figure that cannot be
// drawn from these tables (a convergence plot without the per-walk table)
// is reported with a note, not an error.
func Draw(dir string, names []string) ([]Drawn, error) {
	return DrawContext(context.Background(), dir, names)
}

// DrawContext is Draw that stops, with ctx's error, before the next figure
// file once ctx is done; files already written are whole (each is renamed
// into place), and no temporary file is left behind.
func DrawContext(ctx context.Context, dir string, names []string) ([]Drawn, error) {
	return DrawWith(ctx, dir, names, nil)
}
