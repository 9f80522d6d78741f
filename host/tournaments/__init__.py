"""Events: Swiss, round robin and knockout, their jobs, images and TRF export."""
