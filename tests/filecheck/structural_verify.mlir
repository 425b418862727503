// RUN: vichls-opt --split-input-file --verify-diagnostics %s | filecheck %s
// The structural ops verify where they stand and what they name (each case below one
// small component; the first is valid and prints back).

builtin.module {
  structural.component "ok" {
    %go = structural.port "ap_start" "in" : i1
    %r_in, %r_en, %r_out = structural.cell "r" "vichls_reg" {WIDTH = 1 : i32} ports ["in", "en", "out"] dirs ["in", "in", "out"] : i1, i1, i1
    structural.static_group "g" latency 1 : i32 {
      structural.assign %r_en = %go if %g_c0 : i1
    }
    %g_c0 = structural.group_cycle "g" 0 : i32
    structural.control {
      structural.enable "g"
    }
  }
}

// CHECK:      structural.component "ok" {
// CHECK:        structural.enable "g"

// -----

builtin.module {
  structural.component "c" {
    %go = structural.port "ap_start" "in" : i1
    %w = structural.wire "w" : i1
    structural.static_group "g" latency 1 : i32 {
      structural.assign %w = %go : i1
    }
    structural.control {
      structural.enable "h"
    }
  }
}

// CHECK: structural.enable names the group 'h', which component 'c' does not have

// -----

builtin.module {
  structural.component "c" {
    %go = structural.port "ap_start" "in" : i1
    %c0 = structural.group_cycle "h" 0 : i32
  }
}

// CHECK: structural.group_cycle names the group 'h', which component 'c' does not have

// -----

builtin.module {
  structural.component "c" {
    %a = structural.port "x" "in" : i1
    %b = structural.port "x" "out" : i1
  }
}

// CHECK: component 'c': port x twice

// -----

builtin.module {
  structural.component "c" {
    %go = structural.port "ap_start" "in" : i1
    %w = structural.wire "w" : i1
    structural.static_group "g" latency 1 : i32 {
      structural.assign %w = %go : i1
    }
    structural.enable "g"
  }
}

// CHECK: structural.enable must be inside a structural.control

// -----

builtin.module {
  structural.component "c" {
    %go = structural.port "ap_start" "in" : i1
    %w = structural.wire "w" : i1
    structural.static_group "g" latency 1 : i32 {
      structural.assign %w = %go : i1
    }
    structural.control {
      structural.enable "g"
    }
    structural.control {
      structural.enable "g"
    }
  }
}

// CHECK: component 'c': more than one control

// -----

builtin.module {
  %p = structural.port "x" "in" : i1
}

// CHECK: 'structural.port' expects parent op 'structural.component'

// -----

builtin.module {
  structural.component "c" {
    %go = structural.port "ap_start" "in" : i1
    %w = structural.wire "w" : i1
    structural.static_group "g" latency 1 : i32 {
      structural.assign %w = %go : i1
    }
    structural.control {
      structural.assign %w = %go : i1
    }
  }
}

// CHECK: structural.assign must be in a component or a static group
