      r.chip = mi355 ? Chip::gfx950 : Chip::gfx942;
      r.computeUnits = mi355 ? 256 : 304; // the flagship parts
